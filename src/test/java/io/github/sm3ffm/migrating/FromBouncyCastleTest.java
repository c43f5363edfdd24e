package io.github.sm3ffm.migrating;

import static io.github.sm3ffm.migrating.Expected.KEY;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.sm3ffm.RowHasher;
import io.github.sm3ffm.SM3Provider;
import java.security.MessageDigest;
import java.security.Security;
import java.util.Arrays;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.bouncycastle.crypto.digests.SM3Digest;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * docs/migrating.md, "From BouncyCastle": each recipe as the page writes it, the provider that served it, and its
 * result against BouncyCastle's lightweight classes. BouncyCastle is registered as a service that uses it has it:
 * {@code Security.addProvider}, last.
 */
class FromBouncyCastleTest {
    private static final byte[] DATA = Expected.random(3000, 1);

    private final ProviderList providers = new ProviderList();

    @BeforeEach
    void serviceAsBefore() {
        Security.removeProvider(SM3Provider.NAME);
        Security.removeProvider("BC");
        Security.addProvider(new BouncyCastleProvider());
    }

    @AfterEach
    void restore() {
        providers.restore();
    }

    @Test
    void aNamedProviderIsServedByItWhateverTheOrder() throws Exception {
        Security.insertProviderAt(new SM3Provider(), 1);
        assertEquals("BC", MessageDigest.getInstance("SM3", "BC").getProvider().getName());
        assertEquals("BC", Mac.getInstance("HmacSM3", "BC").getProvider().getName());
        assertEquals(SM3Provider.NAME, MessageDigest.getInstance("SM3").getProvider().getName());
        assertEquals(SM3Provider.NAME, Mac.getInstance("HmacSM3").getProvider().getName());
    }

    @Test
    void addProviderPutsSm3ffmBehindBouncyCastle() throws Exception {
        Security.addProvider(new SM3Provider());
        assertEquals("BC", MessageDigest.getInstance("SM3").getProvider().getName());
        assertEquals("BC", ProviderList.first("Mac", "HmacSM3"));
    }

    @Test
    void insertedFirstSm3ffmServesSm3AndHmacSm3WhileBouncyCastleKeepsTheRest() throws Exception {
        Security.insertProviderAt(new SM3Provider(), 1);
        Expected.servedBySm3ffm(DATA);
        assertEquals("BC", Cipher.getInstance("SM4/ECB/PKCS5Padding").getProvider().getName());
    }

    @Test
    void lightweightDigestBecomesMessageDigest() throws Exception {
        Security.insertProviderAt(new SM3Provider(), 1);
        MessageDigest digest = MessageDigest.getInstance("SM3");
        digest.update(DATA, 0, 1000);
        MessageDigest copy = (MessageDigest) digest.clone();   // Memoable.copy()
        digest.update(DATA, 1000, DATA.length - 1000);

        SM3Digest bc = new SM3Digest();
        bc.update(DATA, 0, 1000);
        SM3Digest bcCopy = (SM3Digest) bc.copy();
        bc.update(DATA, 1000, DATA.length - 1000);

        assertEquals(SM3Provider.NAME, copy.getProvider().getName());
        assertArrayEquals(Expected.doFinal(bc), digest.digest());
        assertArrayEquals(Expected.doFinal(bcCopy), copy.digest());
    }

    @Test
    void lightweightHmacBecomesMac() throws Exception {
        Security.insertProviderAt(new SM3Provider(), 1);
        Mac mac = Mac.getInstance("HmacSM3");
        mac.init(new SecretKeySpec(KEY, "HmacSM3"));
        mac.update(DATA, 0, 1000);
        Mac copy = (Mac) mac.clone();
        mac.update(DATA, 1000, DATA.length - 1000);

        assertEquals(SM3Provider.NAME, copy.getProvider().getName());
        assertArrayEquals(Expected.hmacSm3(KEY, DATA), mac.doFinal());
        assertArrayEquals(Expected.hmacSm3(KEY, Arrays.copyOf(DATA, 1000)), copy.doFinal());
    }

    @Test
    void rowsGoToRowHasherWithNothingRegistered() {
        Security.removeProvider(SM3Provider.NAME);
        RowHasher rows = RowHasher.of();
        for (int offset = 0; offset < DATA.length; offset += 300) {
            byte[] row = Arrays.copyOfRange(DATA, offset, offset + 100);
            assertArrayEquals(Expected.sm3(row), rows.sm3(DATA, offset, 100));
            assertArrayEquals(Expected.hmacSm3(KEY, row), rows.hmacSm3(KEY, 0, KEY.length, DATA, offset, 100));
        }
    }
}
