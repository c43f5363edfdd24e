package io.github.sm3ffm;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.security.Provider;
import java.security.Security;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.crypto.KDF;
import javax.crypto.KDFParameters;
import javax.crypto.SecretKey;
import javax.crypto.spec.HKDFParameterSpec;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

/**
 * Every bad input given to "HKDF-SM3" and to the JDK's own "HKDF-SHA256" (SunJCE; both have 32-byte
 * outputs, so the same limits): the same outcome, exception and cause classes, for each.
 */
class HkdfParityIT {
    private interface Use {
        Object run(KDF kdf) throws Exception;
    }

    private static SecretKey key(byte[] bytes, String format) {
        return new SecretKeySpec(bytes.length == 0 ? new byte[1] : bytes, "Generic") {
            @Override
            public String getFormat() {
                return format;
            }

            @Override
            public byte[] getEncoded() {
                return bytes.length == 0 ? null : super.getEncoded();
            }
        };
    }

    private static Map<String, Use> cases() {
        Map<String, Use> c = new LinkedHashMap<>();
        HKDFParameterSpec good = HKDFParameterSpec.ofExtract().addIKM(new byte[16]).thenExpand(null, 32);
        c.put("good", kdf -> kdf.deriveData(good).length);
        c.put("no IKM, no salt", kdf -> kdf.deriveData(HKDFParameterSpec.ofExtract().extractOnly()).length);
        c.put("length 8160", kdf -> kdf.deriveData(HKDFParameterSpec.ofExtract().thenExpand(null, 8160)).length);
        c.put("length 8161", kdf -> kdf.deriveData(HKDFParameterSpec.ofExtract().thenExpand(null, 8161)));
        c.put("expand length 8161",
                kdf -> kdf.deriveData(HKDFParameterSpec.expandOnly(key(new byte[32], "RAW"), null, 8161)));
        c.put("PRK of 31 bytes", kdf -> kdf.deriveData(HKDFParameterSpec.expandOnly(key(new byte[31], "RAW"), null, 8)));
        c.put("PRK of 40 bytes", kdf -> kdf.deriveData(HKDFParameterSpec.expandOnly(key(new byte[40], "RAW"), null, 8)).length);
        c.put("PRK without bytes", kdf -> kdf.deriveData(HKDFParameterSpec.expandOnly(key(new byte[0], "RAW"), null, 8)));
        c.put("IKM not RAW", kdf -> kdf.deriveData(HKDFParameterSpec.ofExtract().addIKM(key(new byte[8], "X.509")).extractOnly()));
        c.put("salt not RAW", kdf -> kdf.deriveData(HKDFParameterSpec.ofExtract().addSalt(key(new byte[8], "PKCS#8")).extractOnly()));
        c.put("IKM without bytes", kdf -> kdf.deriveData(HKDFParameterSpec.ofExtract().addIKM(key(new byte[0], "RAW")).thenExpand(null, 8)));
        c.put("another spec", kdf -> kdf.deriveData(new IvParameterSpec(new byte[16])));
        c.put("null spec", kdf -> kdf.deriveData(null));
        c.put("deriveKey(null)", kdf -> kdf.deriveKey(null, good));
        c.put("deriveKey(\"\")", kdf -> kdf.deriveKey("", good));
        c.put("deriveKey(\"AES\") of 42 bytes",
                kdf -> kdf.deriveKey("AES", HKDFParameterSpec.ofExtract().thenExpand(null, 42)).getEncoded().length);
        return c;
    }

    /** The outcome as classes: a result's value, or the exception and its causes' classes. */
    private static String outcome(Use use, KDF kdf) {
        try {
            return "returned " + use.run(kdf);
        } catch (Exception e) {
            List<String> chain = new ArrayList<>();
            for (Throwable t = e; t != null; t = t.getCause()) {
                chain.add(t.getClass().getName());
            }
            return "threw " + String.join(" <- ", chain);
        }
    }

    @Test
    void badInputsFailAsTheJdksOwnHkdfFails() throws Exception {
        Provider sunJce = Security.getProvider("SunJCE");
        for (Map.Entry<String, Use> c : cases().entrySet()) {
            String jdk = outcome(c.getValue(), KDF.getInstance("HKDF-SHA256", sunJce));
            String ours = outcome(c.getValue(), KDF.getInstance("HKDF-SM3", new SM3Provider()));
            assertEquals(jdk, ours, c.getKey());
        }
    }

    @Test
    void kdfParametersAreRefusedAsTheJdkRefusesThem() {
        KDFParameters parameters = new KDFParameters() {
        };
        String jdk = outcome(kdf -> KDF.getInstance("HKDF-SHA256", parameters, Security.getProvider("SunJCE")), null);
        String ours = outcome(kdf -> KDF.getInstance("HKDF-SM3", parameters, new SM3Provider()), null);
        assertEquals(jdk, ours);
        assertEquals("threw java.security.InvalidAlgorithmParameterException", ours);
        assertEquals(jdk, ours);
        String x963 = outcome(kdf -> KDF.getInstance("X963KDF-SM3", parameters, new SM3Provider()), null);
        assertEquals(ours, x963);
    }
}
