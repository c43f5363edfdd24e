package io.github.sm3ffm.sm3sum;

import static io.github.sm3ffm.sm3sum.Runs.cksum;
import static io.github.sm3ffm.sm3sum.Runs.openssl;
import static io.github.sm3ffm.sm3sum.Runs.sm3sum;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sm3ffm.SM3Provider;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.bouncycastle.crypto.digests.SM3Digest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** sm3sum against coreutils' {@code cksum -a sm3} and {@code openssl dgst -sm3}, run on the same inputs. */
class Sm3SumTest {
    @TempDir
    Path dir;

    private Path file(String name, byte[] content) throws IOException {
        return Files.write(dir.resolve(name), content);
    }

    private static byte[] random(int length, long seed) {
        byte[] b = new byte[length];
        new Random(seed).nextBytes(b);
        return b;
    }

    private static void assertSame(Runs.Result expected, Runs.Result actual) {
        assertEquals(expected.toString(), actual.toString());
        assertArrayEquals(expected.stdout(), actual.stdout());
    }

    @Test
    void sizesAroundTheBlockAndBufferBoundariesMatchCksumAndOpenssl() throws IOException {
        List<String> files = new ArrayList<>();
        List<Integer> sizes = new ArrayList<>(List.of(0, 1, 1024 * 1024 + 1, FileHasher.BUFFER_SIZE,
                FileHasher.BUFFER_SIZE + 1, FileHasher.BUFFER_SIZE - 1));
        for (int n = 55; n <= 65; n++) {
            sizes.add(n);
        }
        for (int size : sizes) {
            files.add(file("f" + size, random(size, size)).toString());
        }
        String[] names = files.toArray(String[]::new);
        Runs.Result ours = sm3sum(names);
        assertEquals(0, ours.exitCode(), ours::toString);
        assertSame(cksum(prepend("--untagged", names)), ours);
        assertSame(cksum(prepend("--tag", names)), sm3sum(prepend("--tag", names)));
        String[] lines = ours.out().split("\n");
        for (int i = 0; i < names.length; i++) {
            assertEquals(openssl(new byte[0], names[i]) + "  " + names[i], lines[i]);
        }
    }

    @Test
    void sparseFileSpanningSeveralMappedWindowsMatchesOpenssl() throws IOException {
        Path sparse = dir.resolve("sparse");
        long size = 2 * FileHasher.WINDOW_SIZE + 3;
        try (RandomAccessFile f = new RandomAccessFile(sparse.toFile(), "rw")) {
            f.setLength(size);
            for (long at : new long[] {0, FileHasher.WINDOW_SIZE - 1, FileHasher.WINDOW_SIZE, size - 1}) {
                f.seek(at);
                f.write(0x5a);
            }
        }
        Runs.Result ours = sm3sum(sparse.toString());
        assertEquals(openssl(new byte[0], sparse.toString()) + "  " + sparse + "\n", ours.out());
    }

    @Test
    void standardInputMatchesCksumAndOpenssl() {
        byte[] input = random(300_000, 7);
        Runs.Result ours = sm3sum(input);
        assertSame(cksum(input, "--untagged"), ours);
        assertEquals(openssl(input, "-") + "  -\n", ours.out());
        // Standard input twice: the second read finds it at its end, like coreutils.
        assertSame(cksum(input, "--untagged", "-", "-"), sm3sum(input, "-", "-"));
    }

    @Test
    void namesWithSpacesNewlinesBackslashesAndCarriageReturnsAreWrittenLikeCksum() throws IOException {
        String[] names = {
            file("with space", new byte[] {1}).toString(),
            file("new\nline", new byte[] {2}).toString(),
            file("back\\slash", new byte[] {3}).toString(),
            file("carriage\rreturn", new byte[] {4}).toString(),
            file("all \\ \n \r", new byte[] {5}).toString(),
            file("it's", new byte[] {6}).toString(),
        };
        for (String format : List.of("--untagged", "--tag")) {
            assertSame(cksum(prepend(format, names)), sm3sum(prepend(format, names)));
            assertSame(cksum(prepend(format, prepend("-z", names))), sm3sum(prepend(format, prepend("-z", names))));
        }
        assertTrue(sm3sum(names).out().contains("\\" + hexOf(new byte[] {2}) + "  " + dir + "/new\\nline\n"));
    }

    @Test
    void unreadableFilesAreReportedAndTheRestStillHashed() throws IOException {
        String good = file("good", new byte[] {42}).toString();
        String[] args = {dir + "/missing", good, dir.toString(), dir + "/good/not-a-dir", dir + "/sp ace",
                dir + "/new\nline", dir + "/it's", dir + "/co:lon", dir + "/tab\there", "", "-"};
        Runs.Result ours = sm3sum(args);
        assertEquals(1, ours.exitCode());
        assertSame(cksum(prepend("--untagged", args)), ours);
        assertTrue(ours.stderr().contains("sm3sum: " + dir + ": Is a directory\n"), ours::toString);
        assertTrue(ours.stderr().contains("sm3sum: '" + dir + "/sp ace': No such file or directory\n"));
    }

    @Test
    void quotingOfNamesInMessagesMatchesCksum() {
        List<String> args = new ArrayList<>();
        for (String name : List.of("plain", "a b", "it's", "it's x", "a$b", "x*y", "q\"q", "n\nl", "t\tt", "a\u0001",
                "a\u007f", "~home", "a~", "#h", "a#", "a=b", "a,b", "-x", "a@b", "%", "[x]", "{", "a{", "}", "a!",
                "a&b", "a\\b", "a?b", "it's{", "#it's", "x:y", "\u00e9", "\u00e9'", "a\u2028")) {
            args.add("missing/" + name);
            args.add(name.startsWith("-") ? "./" + name : name);
        }
        String[] names = args.toArray(String[]::new);
        assertSame(cksum(prepend("--untagged", names)), sm3sum(names));
    }

    @Test
    void checkReportsGoodBadAndMissingEntriesInBothFormatsLikeCksum() throws IOException {
        List<String> names = new ArrayList<>();
        for (String name : List.of("good", "bad", "missing", "with space", "new\nline", "back\\slash", "cr\rname")) {
            names.add(file(name, name.getBytes(StandardCharsets.UTF_8)).toString());
        }
        String[] all = names.toArray(String[]::new);
        Path untagged = Files.write(dir.resolve("untagged.sum"), sm3sum(all).stdout());
        Path tagged = Files.write(dir.resolve("tagged.sum"), cksum(prepend("--tag", all)).stdout());
        Files.write(dir.resolve("bad"), "changed".getBytes(StandardCharsets.UTF_8));
        Files.delete(dir.resolve("missing"));
        String good = hexOf("good".getBytes(StandardCharsets.UTF_8));
        Path odd = Files.writeString(dir.resolve("odd.sum"), String.join("\n",
                "# a comment",
                "",
                good + "  " + dir + "/good\r",
                good.toUpperCase() + " *" + dir + "/good",
                "not a checksum line",
                good.substring(1) + "  " + dir + "/good",
                "SM3(" + dir + "/good)= " + good,
                "SM3 (" + dir + "/good) = " + good.substring(2),
                "SM3-256 (" + dir + "/good) = " + good,
                "SHA256 (" + dir + "/good) = " + good,
                "\\" + good + "  " + dir + "/bad\\escape",
                good + "  " + dir + "/missing"));
        Path reversed = Files.writeString(dir.resolve("reversed.sum"),
                good + " " + dir + "/good\n" + good + "  " + dir + "/good\n");
        Path garbage = Files.writeString(dir.resolve("garbage.sum"), "nothing here\n");
        Path onlyMissing = Files.writeString(dir.resolve("only-missing.sum"), good + "  " + dir + "/missing\n");
        List<List<String>> optionSets = List.of(List.of(), List.of("--quiet"), List.of("--status"), List.of("--strict"),
                List.of("-w"), List.of("--ignore-missing"), List.of("--strict", "--warn"),
                List.of("--ignore-missing", "--quiet"), List.of("--status", "--strict"), List.of("--warn", "--quiet"));
        List<List<String>> checkFiles = List.of(List.of(untagged.toString()), List.of(tagged.toString()),
                List.of(odd.toString()), List.of(reversed.toString()), List.of(garbage.toString()),
                List.of(onlyMissing.toString()), List.of(untagged.toString(), tagged.toString(), odd.toString()),
                List.of(dir + "/no-such.sum", dir.toString()));
        for (List<String> options : optionSets) {
            for (List<String> files : checkFiles) {
                List<String> args = new ArrayList<>(List.of("-c"));
                args.addAll(options);
                args.addAll(files);
                String[] a = args.toArray(String[]::new);
                Runs.Result expected = cksum(a);
                Runs.Result actual = sm3sum(a);
                assertEquals(expected.toString(), actual.toString(), () -> "sm3sum " + args);
            }
        }
        Runs.Result plain = sm3sum("-c", untagged.toString());
        assertEquals(1, plain.exitCode());
        assertTrue(plain.out().contains(dir + "/good: OK\n"), plain::toString);
        assertTrue(plain.out().contains(dir + "/bad: FAILED\n"), plain::toString);
        assertTrue(plain.out().contains(dir + "/missing: FAILED open or read\n"), plain::toString);
        assertTrue(plain.out().contains("\\" + dir + "/new\\nline: OK\n"), plain::toString);
        assertTrue(plain.stderr().endsWith("sm3sum: WARNING: 1 listed file could not be read\n"
                + "sm3sum: WARNING: 1 computed checksum did NOT match\n"), plain::toString);
    }

    @Test
    void checkReadsStandardInputLikeCksum() throws IOException {
        Path good = file("good", new byte[] {9});
        byte[] lines = (hexOf(new byte[] {9}) + "  " + good + "\n" + hexOf(new byte[0]) + "  -\n")
                .getBytes(StandardCharsets.UTF_8);
        assertSame(cksum(lines, "-c"), sm3sum(lines, "-c"));
        assertSame(cksum(lines, "-c", "-w", "-"), sm3sum(lines, "-c", "-w", "-"));
        assertEquals(0, sm3sum(lines, "-c").exitCode());
    }

    @Test
    void allGoodChecksExitZero() throws IOException {
        String a = file("a", new byte[] {1}).toString();
        String b = file("b", new byte[] {2}).toString();
        Path sums = Files.write(dir.resolve("sums"), sm3sum("--tag", a, b).stdout());
        Runs.Result r = sm3sum("-c", sums.toString());
        assertEquals(0, r.exitCode(), r::toString);
        assertEquals(a + ": OK\n" + b + ": OK\n", r.out());
        assertEquals("", r.stderr());
        assertEquals(0, sm3sum("-c", "--status", sums.toString()).out().length());
    }

    @ParameterizedTest
    @ValueSource(strings = {"--foo", "--st", "--check=1", "-x", "--status", "--warn", "--quiet", "--strict",
            "--ignore-missing", "-cz", "--version=2"})
    void usageErrorsMatchCksum(String option) {
        Runs.Result r = sm3sum(option);
        assertEquals(1, r.exitCode());
        assertSame(cksum(option), r);
    }

    @Test
    void binaryAndTextAreAcceptedAndChangeNothing() throws IOException {
        String f = file("f", new byte[] {1, 2, 3}).toString();
        Runs.Result plain = sm3sum(f);
        assertSame(plain, sm3sum("-b", f));
        assertSame(plain, sm3sum("--text", f));
        assertSame(plain, sm3sum("--untagged", "-t", f));
        assertSame(sm3sum("--tag", f), sm3sum("--tag", "--binary", f));
    }

    @Test
    void optionsMayFollowOperandsAndDoubleDashEndsThem() throws IOException {
        Path f = file("-dash", new byte[] {1});
        String name = f.toString();
        assertSame(cksum("--tag", name), sm3sum(name, "--tag"));
        assertSame(cksum("--untagged", "--", "--tag"), sm3sum("--", "--tag"));
    }

    @Test
    void helpAndVersion() throws Exception {
        Runs.Result help = sm3sum("--help", "--foo");
        assertEquals(0, help.exitCode());
        assertTrue(help.out().startsWith("Usage: sm3sum [OPTION]... [FILE]...\n"), help::toString);
        for (String option : List.of("--check", "--tag", "--untagged", "--zero", "--progress", "--ignore-missing",
                "--quiet", "--status", "--strict", "--warn", "--binary", "--text")) {
            assertTrue(help.out().contains(option), option);
        }
        Runs.Result version = sm3sum("--vers");
        assertEquals(0, version.exitCode());
        assertTrue(version.out().startsWith("sm3sum (sm3-ffm) "), version::toString);
        assertTrue(version.out().contains(new SM3Provider().getInfo()), version::toString);
        assertTrue(version.out().contains(" from OpenSSL 3.") || version.out().contains(" from OpenSSL 4."), version::toString);
    }

    @Test
    void progressReportsBytesPercentAndRateWhenAsked() throws IOException {
        String f = file("big", random(1024 * 1024 + 1, 3)).toString();
        Runs.Result r = sm3sum("--progress", f);
        assertEquals(0, r.exitCode());
        assertEquals(sm3sum(f).out(), r.out());
        Matcher m = Pattern.compile("sm3sum: " + Pattern.quote(f)
                + ": 1048577/1048577 bytes \\(100%\\), \\d+\\.\\d MB/s\n$").matcher(r.stderr());
        assertTrue(m.find(), r::toString);
        Runs.Result piped = sm3sum(new byte[10], "--progress");
        assertTrue(piped.stderr().matches("sm3sum: -: 10 bytes, \\d+\\.\\d MB/s\n"), piped::toString);
        assertEquals("", sm3sum(f).stderr(), "no progress unless asked or on a terminal");
    }

    /** SM3 by Bouncy Castle, a reference independent of OpenSSL. */
    private static String hexOf(byte[] content) {
        SM3Digest sm3 = new SM3Digest();
        sm3.update(content, 0, content.length);
        byte[] out = new byte[sm3.getDigestSize()];
        sm3.doFinal(out, 0);
        return HexFormat.of().formatHex(out);
    }

    private static String[] prepend(String first, String... rest) {
        String[] all = new String[rest.length + 1];
        all[0] = first;
        System.arraycopy(rest, 0, all, 1, rest.length);
        return all;
    }
}
