package io.github.sm3ffm.bench;

import io.github.sm3ffm.SM3Provider;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.MessageDigest;
import java.security.Provider;
import java.security.Security;
import java.security.spec.ECGenParameterSpec;
import java.util.concurrent.TimeUnit;
import org.bouncycastle.cms.CMSProcessableByteArray;
import org.bouncycastle.cms.CMSSignedData;
import org.bouncycastle.cms.CMSSignedDataGenerator;
import org.bouncycastle.cms.SignerInformation;
import org.bouncycastle.cms.jcajce.JcaSignerInfoGeneratorBuilder;
import org.bouncycastle.cms.jcajce.JcaSignerInfoVerifierBuilder;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.bouncycastle.operator.jcajce.JcaDigestCalculatorProviderBuilder;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * What does registering SM3FFM ahead of BouncyCastle change for a client that never names it? BC's CMS
 * signs and verifies a detached SM3withSM2 SignedData with BC's SM2, and takes the content digest from the
 * JCA by name: {@code first=SM3FFM} puts SM3FFM at position 1 (OpenSSL hashes the content),
 * {@code first=BC} leaves BC alone (BC hashes it). The ratio of the two is the end-to-end speed-up.
 */
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class CmsBenchmark extends TimedBenchmark {
    @Param({"SM3FFM", "BC"})
    public String first;

    @Param({"1048576", "67108864"})
    public int size;

    private final Provider bc = new BouncyCastleProvider();
    private KeyPair keys;
    /** The signer's identifier in the SignerInfo; no certificate is needed to sign or verify by key. */
    private final byte[] keyId = Providers.message(20);
    private byte[] content;
    private byte[] signedData;

    @Setup
    public void setUp() throws Exception {
        if (first.equals(SM3Provider.NAME)) {
            Security.insertProviderAt(new SM3Provider(), 1);
        }
        Security.addProvider(bc);
        String chosen = MessageDigest.getInstance("SM3").getProvider().getName();
        if (!chosen.equals(first)) {
            throw new IllegalStateException("MessageDigest SM3 comes from " + chosen + ", not " + first);
        }
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC", bc);
        generator.initialize(new ECGenParameterSpec("sm2p256v1"));
        keys = generator.generateKeyPair();
        content = Providers.message(size);
        signedData = sign();
        if (!verify()) {
            throw new IllegalStateException("the SignedData does not verify");
        }
    }

    @TearDown
    public void tearDown() {
        Security.removeProvider(SM3Provider.NAME);
        Security.removeProvider(bc.getName());
    }

    /** The DER encoding of a detached SignedData over the content. */
    @Benchmark
    public byte[] sign() throws Exception {
        CMSSignedDataGenerator generator = new CMSSignedDataGenerator();
        generator.addSignerInfoGenerator(
                new JcaSignerInfoGeneratorBuilder(new JcaDigestCalculatorProviderBuilder().build()).build(
                        new JcaContentSignerBuilder("SM3withSM2").setProvider(bc).build(keys.getPrivate()), keyId));
        return generator.generate(new CMSProcessableByteArray(content), false).getEncoded();
    }

    /** Checks the SignedData signed in the set-up against the content, as a receiver does. */
    @Benchmark
    public boolean verify() throws Exception {
        SignerInformation signer = new CMSSignedData(new CMSProcessableByteArray(content), signedData)
                .getSignerInfos().getSigners().iterator().next();
        return signer.verify(new JcaSignerInfoVerifierBuilder(new JcaDigestCalculatorProviderBuilder().build())
                .setProvider(bc).build(keys.getPublic()));
    }
}
