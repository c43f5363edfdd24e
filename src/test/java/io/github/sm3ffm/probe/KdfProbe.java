package io.github.sm3ffm.probe;

import io.github.sm3ffm.SM3Provider;
import java.security.MessageDigest;
import java.security.Provider;
import java.util.HexFormat;
import javax.crypto.KDF;
import javax.crypto.Mac;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.HKDFParameterSpec;
import javax.crypto.spec.PBEKeySpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Prints what the provider offers in this JVM, for KdfOnEarlierJdksIT. Outside the library's packages, as
 * {@link ProviderProbe} is: it also runs with the jar on the module path.
 */
public final class KdfProbe {
    private KdfProbe() {
    }

    public static void main(String[] args) throws Exception {
        Provider p = new SM3Provider();
        System.out.println("module=" + (SM3Provider.class.getModule().isNamed()
                ? SM3Provider.class.getModule().getName() : "unnamed"));
        System.out.println("sm3=" + HexFormat.of().formatHex(MessageDigest.getInstance("SM3", p).digest("abc".getBytes())));
        Mac mac = Mac.getInstance("HmacSM3", p);
        mac.init(new SecretKeySpec(new byte[16], "HmacSM3"));
        mac.doFinal(new byte[3]);
        SecretKeyFactory.getInstance("PBKDF2WithHmacSM3", p).generateSecret(
                new PBEKeySpec("pw".toCharArray(), new byte[8], 2, 128));
        System.out.println("hmac=ok pbkdf2=ok");
        System.out.println("kdfs=" + p.getServices().stream().filter(s -> s.getType().equals("KDF"))
                .map(Provider.Service::getAlgorithm).sorted().toList());
        try {
            byte[] okm = KDF.getInstance("HKDF-SM3", p).deriveData(HKDFParameterSpec.ofExtract().extractOnly());
            System.out.println("HKDF-SM3: " + okm.length + " bytes");
        } catch (Exception e) {
            System.out.println("HKDF-SM3: " + e.getClass().getSimpleName());
        }
        System.out.println("info=" + p.getInfo());
    }
}
