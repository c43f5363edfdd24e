package io.github.sm3ffm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.MessageDigest;
import java.security.MessageDigestSpi;
import java.security.NoSuchAlgorithmException;
import java.security.Provider;
import java.security.Security;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.util.Date;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import org.bouncycastle.asn1.ASN1OctetString;
import org.bouncycastle.asn1.cms.CMSAttributes;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.cms.CMSProcessableByteArray;
import org.bouncycastle.cms.CMSSignedData;
import org.bouncycastle.cms.CMSSignedDataGenerator;
import org.bouncycastle.cms.CMSSignerDigestMismatchException;
import org.bouncycastle.cms.SignerInformation;
import org.bouncycastle.cms.jcajce.JcaSignerInfoGeneratorBuilder;
import org.bouncycastle.cms.jcajce.JcaSignerInfoVerifierBuilder;
import org.bouncycastle.crypto.digests.SM3Digest;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.bouncycastle.operator.jcajce.JcaDigestCalculatorProviderBuilder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A real client: BouncyCastle's CMS signs and verifies a detached SM3withSM2 SignedData over 16 MiB with
 * its own SM2, and finds the content digest by name through the JCA. A spy registered first passes
 * {@code MessageDigest} "SM3" to SM3FFM and counts the bytes: with SM3FFM ahead of BC they all reach it;
 * with BC ahead (the control) none do, so the count tells which provider hashed the content.
 */
class CmsSignedDataIT {
    private static final int SIZE = 16 << 20;
    private static final byte[] CONTENT = new byte[SIZE];

    static {
        new Random(16).nextBytes(CONTENT);
    }

    private final Provider bc = new BouncyCastleProvider();
    private final Spy spy = new Spy(new SM3Provider());

    @AfterEach
    void unregister() {
        Security.removeProvider(spy.getName());
        Security.removeProvider(bc.getName());
    }

    @Test
    void sm3ffmAheadOfBcHashesTheContentWhileBcSigns() throws Exception {
        Security.insertProviderAt(spy, 1);
        Security.addProvider(bc);

        byte[] signed = signAndVerify();

        // The content to sign, to verify, and to verify tampered; BC's SM2 signer hashes the signed
        // attributes with its own SM3, outside the JCA.
        assertEquals(3L * SIZE, spy.bytes.sum());
        assertTrue(signed.length < 4096, "detached: the content is not in the SignedData");
    }

    @Test
    void withBcAheadTheSpySeesNothing() throws Exception {
        Security.insertProviderAt(bc, 1);
        Security.addProvider(spy);

        signAndVerify();

        assertEquals(0, spy.instances.get());
        assertEquals(0L, spy.bytes.sum());
    }

    /**
     * Signs CONTENT as BC's users do, verifies it from the encoding, checks that a changed byte fails, and
     * returns the encoding.
     */
    private byte[] signAndVerify() throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC", bc);
        generator.initialize(new ECGenParameterSpec("sm2p256v1"));
        KeyPair keys = generator.generateKeyPair();
        X500Name name = new X500Name("CN=sm3-ffm CMS test");
        Date now = new Date();
        X509Certificate cert = new JcaX509CertificateConverter().setProvider(bc).getCertificate(
                new JcaX509v3CertificateBuilder(name, BigInteger.ONE, now, new Date(now.getTime() + 3_600_000L),
                        name, keys.getPublic())
                        .build(new JcaContentSignerBuilder("SM3withSM2").setProvider(bc).build(keys.getPrivate())));

        CMSSignedDataGenerator cms = new CMSSignedDataGenerator();
        cms.addSignerInfoGenerator(new JcaSignerInfoGeneratorBuilder(new JcaDigestCalculatorProviderBuilder().build())
                .build(new JcaContentSignerBuilder("SM3withSM2").setProvider(bc).build(keys.getPrivate()), cert));
        cms.addCertificate(new JcaX509CertificateHolder(cert));
        byte[] encoded = cms.generate(new CMSProcessableByteArray(CONTENT), false).getEncoded();

        CMSSignedData received = new CMSSignedData(new CMSProcessableByteArray(CONTENT), encoded);
        SignerInformation signer = received.getSignerInfos().getSigners().iterator().next();
        assertTrue(signer.verify(new JcaSignerInfoVerifierBuilder(new JcaDigestCalculatorProviderBuilder().build())
                .setProvider(bc).build(cert)));
        assertArrayEquals(bcSm3(CONTENT), ASN1OctetString.getInstance(signer.getSignedAttributes()
                .get(CMSAttributes.messageDigest).getAttrValues().getObjectAt(0)).getOctets());

        byte[] tampered = CONTENT.clone();
        tampered[SIZE / 2] ^= 1;
        SignerInformation forged = new CMSSignedData(new CMSProcessableByteArray(tampered), encoded)
                .getSignerInfos().getSigners().iterator().next();
        assertThrows(CMSSignerDigestMismatchException.class,
                () -> forged.verify(new JcaSignerInfoVerifierBuilder(new JcaDigestCalculatorProviderBuilder().build())
                        .setProvider(bc).build(cert)));
        return encoded;
    }

    private static byte[] bcSm3(byte[] data) {
        SM3Digest digest = new SM3Digest();
        digest.update(data, 0, data.length);
        byte[] out = new byte[digest.getDigestSize()];
        digest.doFinal(out, 0);
        return out;
    }

    /** A provider whose only service, MessageDigest "SM3", is the target's, counted. */
    private static final class Spy extends Provider {
        final AtomicInteger instances = new AtomicInteger();
        final LongAdder bytes = new LongAdder();

        Spy(Provider target) {
            super("SM3Spy", "1", "Counts what MessageDigest SM3 of " + target.getName() + " is given");
            putService(new Service(this, "MessageDigest", "SM3", Counting.class.getName(),
                    List.of("1.2.156.10197.1.401", "OID.1.2.156.10197.1.401"), null) {
                @Override
                public Object newInstance(Object parameter) throws NoSuchAlgorithmException {
                    instances.incrementAndGet();
                    return new Counting(MessageDigest.getInstance("SM3", target), bytes);
                }
            });
        }
    }

    private static final class Counting extends MessageDigestSpi implements Cloneable {
        private MessageDigest target;
        private final LongAdder bytes;

        Counting(MessageDigest target, LongAdder bytes) {
            this.target = target;
            this.bytes = bytes;
        }

        @Override
        protected int engineGetDigestLength() {
            return target.getDigestLength();
        }

        @Override
        protected void engineUpdate(byte input) {
            bytes.increment();
            target.update(input);
        }

        @Override
        protected void engineUpdate(byte[] input, int offset, int len) {
            bytes.add(len);
            target.update(input, offset, len);
        }

        @Override
        protected void engineUpdate(ByteBuffer input) {
            bytes.add(input.remaining());
            target.update(input);
        }

        @Override
        protected byte[] engineDigest() {
            return target.digest();
        }

        @Override
        protected void engineReset() {
            target.reset();
        }

        @Override
        public Object clone() throws CloneNotSupportedException {
            Counting copy = (Counting) super.clone();
            copy.target = (MessageDigest) target.clone();
            return copy;
        }
    }
}
