package io.github.sm3ffm.migrating;

import static io.github.sm3ffm.migrating.Expected.KEY;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import cn.hutool.crypto.GlobalBouncyCastleProvider;
import cn.hutool.crypto.SmUtil;
import cn.hutool.crypto.digest.HMac;
import cn.hutool.crypto.digest.SM3;
import cn.hutool.crypto.digest.mac.DefaultHMacEngine;
import io.github.sm3ffm.SM3Provider;
import java.security.Security;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * docs/migrating.md, "From Hutool": {@code SmUtil.sm3()} after Hutool's BouncyCastle switch is turned off, and
 * HmacSM3 through {@code DefaultHMacEngine} (Hutool's {@code hmacSm3} is BouncyCastle's own engine whatever the
 * switch; HutoolSm3IT checks every entry point). Hutool's switch is global: each test puts it back.
 */
class FromHutoolTest {
    private static final byte[] DATA = Expected.random(4000, 3);

    private final ProviderList providers = new ProviderList();
    private boolean hutoolUsedBc;

    @BeforeEach
    void remember() {
        hutoolUsedBc = GlobalBouncyCastleProvider.INSTANCE.getProvider() != null;
    }

    @AfterEach
    void restore() {
        GlobalBouncyCastleProvider.setUseBouncyCastle(hutoolUsedBc);
        providers.restore();
    }

    @Test
    void hutoolsDefaultIsBouncyCastleWhateverTheOrder() {
        GlobalBouncyCastleProvider.setUseBouncyCastle(true);
        Security.insertProviderAt(new SM3Provider(), 1);
        assertEquals("BC", SmUtil.sm3().getDigest().getProvider().getName());
    }

    @Test
    void afterTheSwitchSmUtilSm3AndDefaultHMacEngineAreServedBySm3ffm() {
        Security.insertProviderAt(new SM3Provider(), 1);
        GlobalBouncyCastleProvider.setUseBouncyCastle(false);

        SM3 sm3 = SmUtil.sm3();
        HMac hmac = new HMac(new DefaultHMacEngine("HmacSM3", KEY));   // instead of SmUtil.hmacSm3(KEY)

        assertEquals(SM3Provider.NAME, sm3.getDigest().getProvider().getName());
        assertEquals(SM3Provider.NAME, ((DefaultHMacEngine) hmac.getEngine()).getMac().getProvider().getName());
        assertArrayEquals(Expected.sm3(DATA), sm3.digest(DATA));
        assertArrayEquals(Expected.hmacSm3(KEY, DATA), hmac.digest(DATA));
        assertArrayEquals(SmUtil.hmacSm3(KEY).digest(DATA), hmac.digest(DATA), "the same tags as hmacSm3");
    }
}
