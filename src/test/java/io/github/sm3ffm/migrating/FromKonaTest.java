package io.github.sm3ffm.migrating;

import static io.github.sm3ffm.migrating.Expected.KEY;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.tencent.kona.crypto.KonaCryptoProvider;
import io.github.sm3ffm.SM3Provider;
import java.security.MessageDigest;
import java.security.Security;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * docs/migrating.md, "From Tencent Kona": Kona's pure-Java provider, {@code KonaCrypto}, registered as its users
 * register it, and the same calls once SM3FFM is first. Results are compared with BouncyCastle's lightweight SM3.
 */
class FromKonaTest {
    private static final byte[] DATA = Expected.random(5000, 2);

    private final ProviderList providers = new ProviderList();

    @BeforeEach
    void serviceAsBefore() {
        Security.removeProvider(SM3Provider.NAME);
        Security.addProvider(new KonaCryptoProvider());
    }

    @AfterEach
    void restore() {
        providers.restore();
    }

    @Test
    void konasNameKeepsKona() throws Exception {
        Security.insertProviderAt(new SM3Provider(), 1);
        assertEquals("KonaCrypto", MessageDigest.getInstance("SM3", "KonaCrypto").getProvider().getName());
        assertEquals("KonaCrypto", Mac.getInstance("HmacSM3", "KonaCrypto").getProvider().getName());
    }

    @Test
    void withoutTheNameSm3ffmFirstServesSm3AndHmacSm3AndKonaKeepsSm4() throws Exception {
        Security.insertProviderAt(new SM3Provider(), 1);
        Expected.servedBySm3ffm(DATA);
        assertArrayEquals(MessageDigest.getInstance("SM3", "KonaCrypto").digest(DATA), MessageDigest.getInstance("SM3").digest(DATA));
        // Kona's own SM4 (BouncyCastle may be registered in this JVM: the name picks Kona's).
        assertEquals("KonaCrypto", Cipher.getInstance("SM4/CBC/NoPadding", "KonaCrypto").getProvider().getName());
    }
}
