package io.github.sm3ffm.internal.libcrypto;

import cn.hutool.crypto.SmUtil;
import cn.hutool.crypto.digest.DigestUtil;
import cn.hutool.crypto.digest.Digester;
import cn.hutool.crypto.digest.HMac;
import cn.hutool.crypto.digest.SM3;
import cn.hutool.crypto.digest.mac.DefaultHMacEngine;
import io.github.sm3ffm.SM3Provider;
import java.nio.charset.StandardCharsets;
import java.security.Security;
import java.util.function.Supplier;

/**
 * HutoolSm3IT's child JVM: SM3FFM registered first, Hutool without BC, each way to "abc" (the HMACs under the key
 * given), one line each. It names no BC type, as its class path has none.
 */
public final class HutoolWithoutBcProbe {
    private HutoolWithoutBcProbe() {
    }

    public static void main(String[] args) throws Exception {
        byte[] key = args[0].getBytes(StandardCharsets.US_ASCII);
        Security.insertProviderAt(new SM3Provider(), 1);
        report("DigestUtil.digester", () -> {
            Digester d = DigestUtil.digester("SM3");
            return d.getDigest().getProvider().getName() + " " + d.digestHex("abc");
        });
        report("new SM3", () -> {
            SM3 d = new SM3();
            return d.getDigest().getProvider().getName() + " " + d.digestHex("abc");
        });
        report("HMac over DefaultHMacEngine", () -> {
            HMac hmac = new HMac(new DefaultHMacEngine("HmacSM3", key));
            return ((DefaultHMacEngine) hmac.getEngine()).getMac().getProvider().getName() + " "
                    + hmac.digestHex("abc");
        });
        report("SmUtil.sm3", () -> SmUtil.sm3().digestHex("abc"));
        report("HMac(\"HmacSM3\", key)", () -> new HMac("HmacSM3", key).digestHex("abc"));
    }

    private static void report(String entryPoint, Supplier<String> route) {
        String outcome;
        try {
            outcome = route.get();
        } catch (NoClassDefFoundError e) {
            outcome = e.getClass().getName();
        }
        System.out.println(entryPoint + ": " + outcome);
    }
}
