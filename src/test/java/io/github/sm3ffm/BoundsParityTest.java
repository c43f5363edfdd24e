package io.github.sm3ffm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every bad offset, length and null, compared call by call with the JDK's own SHA-256: the same
 * exception type (or none), and the object still usable afterwards with its earlier input intact.
 */
class BoundsParityTest {
    interface Call {
        void apply(MessageDigest md) throws Exception;
    }

    record Case(String description, Call call) {
    }

    private static final int[] INTS = {Integer.MIN_VALUE, -1, 0, 1, 9, 10, 11, 31, 32, 33, 40, Integer.MAX_VALUE};

    static List<Case> cases() {
        List<Case> cases = new ArrayList<>();
        for (byte[] array : arrays(0, 10)) {
            String a = array == null ? "null" : "byte[" + array.length + "]";
            cases.add(new Case("update(" + a + ")", md -> md.update(array)));
            cases.add(new Case("digest(" + a + ")", md -> md.digest(array)));
            for (int off : INTS) {
                for (int len : INTS) {
                    cases.add(new Case("update(" + a + ", " + off + ", " + len + ")", md -> md.update(array, off, len)));
                }
            }
        }
        for (byte[] array : arrays(0, 31, 32, 40)) {
            String a = array == null ? "null" : "byte[" + array.length + "]";
            for (int off : INTS) {
                for (int len : INTS) {
                    cases.add(new Case("digest(" + a + ", " + off + ", " + len + ")", md -> md.digest(array, off, len)));
                }
            }
        }
        cases.add(new Case("update((ByteBuffer) null)", md -> md.update((ByteBuffer) null)));
        cases.add(new Case("update(empty heap buffer)", md -> md.update(ByteBuffer.allocate(4).position(4))));
        cases.add(new Case("update(empty direct buffer)", md -> md.update(ByteBuffer.allocateDirect(4).position(4))));
        return cases;
    }

    private static List<byte[]> arrays(int... lengths) {
        List<byte[]> out = new ArrayList<>();
        out.add(null);
        for (int n : lengths) {
            out.add(new byte[n]);
        }
        return out;
    }

    @Test
    void sameExceptionsAsSha256AndStillUsable() throws Exception {
        byte[] ab = {'a', 'b'};
        byte[] abc = {'a', 'b', 'c'};
        byte[] sm3Abc = MessageDigest.getInstance("SM3", new SM3Provider()).digest(abc);
        byte[] shaAbc = MessageDigest.getInstance("SHA-256").digest(abc);
        List<Case> cases = cases();
        for (Case c : cases) {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            MessageDigest ours = MessageDigest.getInstance("SM3", new SM3Provider());
            sha.update(ab);
            ours.update(ab);
            String expected = outcome(sha, c);
            String actual = outcome(ours, c);
            assertEquals(expected, actual, c.description());
            if (!expected.equals("ok")) {
                // A rejected call changes nothing: "ab" is still there.
                sha.update((byte) 'c');
                ours.update((byte) 'c');
                assertArrayEquals(shaAbc, sha.digest(), c.description());
                assertArrayEquals(sm3Abc, ours.digest(), c.description());
            } else {
                ours.reset();
                assertArrayEquals(sm3Abc, ours.digest(abc), c.description());
            }
        }
        System.out.println("BoundsParityTest: " + cases.size() + " calls compared with SHA-256");
    }

    private static String outcome(MessageDigest md, Case c) {
        try {
            c.call().apply(md);
            return "ok";
        } catch (Exception e) {
            return e.getClass().getName();
        }
    }
}
