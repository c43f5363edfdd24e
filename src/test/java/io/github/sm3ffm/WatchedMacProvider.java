package io.github.sm3ffm;

import java.nio.ByteBuffer;
import java.security.InvalidAlgorithmParameterException;
import java.security.InvalidKeyException;
import java.security.Key;
import java.security.NoSuchAlgorithmException;
import java.security.Provider;
import java.security.ProviderException;
import java.security.spec.AlgorithmParameterSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javax.crypto.Mac;
import javax.crypto.MacSpi;

/**
 * A provider whose {@code Mac} is SM3FFM's, watched: it remembers every key object it was given and, per
 * {@code Mac}, the bytes of the last key it was initialised with; it refuses (a {@code ProviderException} from
 * {@code init}, as OpenSSL's failure gives) the keys that start with {@code 'B'}; and when {@link #holdUpdates}
 * asked for it, each of the next updates waits until that many {@code Mac}s are updating at once.
 */
final class WatchedMacProvider extends Provider {
    private static final long serialVersionUID = 1L;
    final transient List<RowKey> keys = new ArrayList<>();
    final transient List<WatchedMac> macs = new ArrayList<>();
    private transient volatile CyclicBarrier together;

    WatchedMacProvider() {
        super("Watched", "1", "SM3FFM's Mac, watched");
        SM3Provider sm3 = new SM3Provider();
        putService(new Service(this, "Mac", "HmacSM3", WatchedMac.class.getName(), null, null) {
            @Override
            public Object newInstance(Object parameter) throws NoSuchAlgorithmException {
                WatchedMac mac = new WatchedMac(Mac.getInstance("HmacSM3", sm3), WatchedMacProvider.this);
                synchronized (macs) {
                    macs.add(mac);
                }
                return mac;
            }
        });
    }

    /** The next {@code parties} updates each wait for the others, so that as many {@code Mac}s are busy at once. */
    void holdUpdates(int parties) {
        together = new CyclicBarrier(parties, () -> together = null);
    }

    static final class WatchedMac extends MacSpi {
        private final Mac mac;
        private final WatchedMacProvider provider;
        volatile byte[] lastKey;

        WatchedMac(Mac mac, WatchedMacProvider provider) {
            this.mac = mac;
            this.provider = provider;
        }

        @Override
        protected int engineGetMacLength() {
            return 32;
        }

        @Override
        protected void engineInit(Key key, AlgorithmParameterSpec params)
                throws InvalidKeyException, InvalidAlgorithmParameterException {
            synchronized (provider.keys) {
                provider.keys.add((RowKey) key);
            }
            lastKey = key.getEncoded();
            if (lastKey[0] == 'B') {
                throw new ProviderException("refused as OpenSSL refuses: EVP_DigestUpdate failed");
            }
            mac.init(key, params);
        }

        @Override
        protected void engineUpdate(byte input) {
            mac.update(input);
        }

        @Override
        protected void engineUpdate(byte[] input, int offset, int len) {
            CyclicBarrier barrier = provider.together;
            if (barrier != null) {
                try {
                    barrier.await(20, TimeUnit.SECONDS);
                } catch (InterruptedException | BrokenBarrierException | TimeoutException e) {
                    throw new AssertionError("the Macs were not busy together", e);
                }
            }
            mac.update(input, offset, len);
        }

        @Override
        protected void engineUpdate(ByteBuffer input) {
            mac.update(input);
        }

        @Override
        protected byte[] engineDoFinal() {
            return mac.doFinal();
        }

        @Override
        protected void engineReset() {
            mac.reset();
        }
    }
}
