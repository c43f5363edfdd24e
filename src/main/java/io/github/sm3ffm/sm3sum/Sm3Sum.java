package io.github.sm3ffm.sm3sum;

import static java.lang.foreign.ValueLayout.JAVA_INT;

import io.github.sm3ffm.SM3Provider;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.invoke.MethodHandle;
import java.nio.channels.ReadableByteChannel;
import java.nio.charset.Charset;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.ProviderException;
import java.util.Optional;
import java.util.function.BooleanSupplier;

/**
 * {@code sm3sum}: prints or checks SM3 checksums like coreutils' {@code cksum -a sm3 --untagged}, computed
 * by OpenSSL's libcrypto. It uses the provider as any application does, through
 * {@code MessageDigest.getInstance("SM3", provider)} (see {@link FileHasher} for how files reach it
 * without a copy).
 *
 * <p>Exit status: 0 when all is well; 1 when a file could not be read, a check failed, or the command
 * line is wrong; 2 when libcrypto or its SM3 cannot be used, with one line on standard error saying why.
 */
public final class Sm3Sum {
    static final int EXIT_OK = 0;
    static final int EXIT_FAILURE = 1;
    static final int EXIT_UNAVAILABLE = 2;

    private final ReadableByteChannel stdin;
    private final Output output;
    private final BooleanSupplier stderrIsTerminal;
    private FileHasher hasher;
    private Progress progress;

    Sm3Sum(ReadableByteChannel stdin, OutputStream stdout, OutputStream stderr, Charset names,
           BooleanSupplier stderrIsTerminal) {
        this.stdin = stdin;
        this.output = new Output(stdout, stderr, names);
        this.stderrIsTerminal = stderrIsTerminal;
    }

    public static void main(String[] args) {
        Sm3Sum tool = new Sm3Sum(new FileInputStream(FileDescriptor.in).getChannel(),
                new FileOutputStream(FileDescriptor.out), new FileOutputStream(FileDescriptor.err),
                Output.platformNames(), () -> isTerminal(2));
        System.exit(tool.run(args));
    }

    int run(String... args) {
        Options options;
        try {
            options = Options.parse(args);
        } catch (Options.UsageException e) {
            output.usageError(e.getMessage());
            return EXIT_FAILURE;
        }
        try {
            return switch (options.action) {
                case HELP -> help();
                case VERSION -> version();
                case HASH, CHECK -> process(options);
            };
        } catch (UncheckedIOException e) {
            output.error("write error: ", reason(e.getCause()));
            return EXIT_FAILURE;
        }
    }

    private int process(Options options) {
        try {
            hasher = new FileHasher(MessageDigest.getInstance("SM3", new SM3Provider()));
        } catch (NoSuchAlgorithmException e) {
            return unavailable(e.getCause() != null ? e.getCause() : e);
        }
        progress = new Progress(output, options.progress, stderrIsTerminal);
        boolean ok = true;
        if (options.action == Options.Action.CHECK) {
            Checker checker = new Checker(this::hashOrThrow, stdin, output, options);
            for (String file : options.operands) {
                ok &= checker.check(file);
            }
        } else {
            for (String file : options.operands) {
                byte[] name = output.bytes(file);
                byte[] digest = hash(name);
                if (digest == null) {
                    ok = false;
                } else {
                    output.line(ChecksumLines.format(name, digest, options.tag, options.zero));
                }
            }
        }
        return ok ? EXIT_OK : EXIT_FAILURE;
    }

    /**
     * The SM3 of the file named {@code name} ("-" is standard input), or null after reporting on standard
     * error why it could not be read.
     */
    byte[] hash(byte[] name) {
        try {
            return hashOrThrow(name);
        } catch (IOException | ProviderException e) {
            report(name, e);
            return null;
        }
    }

    /** "sm3sum: NAME: REASON" on standard error. */
    private void report(byte[] name, Exception e) {
        output.error(output.quoted(name), ": ", reason(e));
    }

    /** Like {@link #hash(byte[])}, but leaves reporting to the caller. */
    private byte[] hashOrThrow(byte[] name) throws IOException {
        Progress.Meter meter = progress.meter(output.quoted(name));
        if (name.length == 1 && name[0] == '-') {
            return hasher.hash(stdin, meter);
        }
        Path path;
        try {
            path = Path.of(output.string(name));
        } catch (InvalidPathException e) {
            throw new NoSuchFileException(output.string(name));
        }
        return hasher.hash(path, meter);
    }

    /** The text coreutils prints for a failure: strerror's words, without Java's decorations. */
    static String reason(Exception e) {
        if (e instanceof NoSuchFileException || e instanceof InvalidPathException) {
            return "No such file or directory";
        }
        if (e instanceof AccessDeniedException) {
            return "Permission denied";
        }
        String text = e instanceof FileSystemException f && f.getReason() != null ? f.getReason() : e.getMessage();
        if (text == null) {
            return e.getClass().getSimpleName();
        }
        // Java adds this to ELOOP's strerror text when opening through a symbolic link.
        return text.replace(" or unable to access attributes of symbolic link", "");
    }

    private int unavailable(Throwable e) {
        output.error(e.getMessage().replace('\n', ' '));
        return EXIT_UNAVAILABLE;
    }

    private int help() {
        output.line("""
                Usage: sm3sum [OPTION]... [FILE]...
                Print or check SM3 (256-bit) checksums, computed by the system's OpenSSL libcrypto.

                With no FILE, or when FILE is -, read standard input.
                  -b, --binary          read in binary mode (the only mode; accepted for compatibility)
                  -c, --check           read checksums from the FILEs and check them
                      --tag             create a BSD-style checksum
                      --untagged        create a reversed style checksum, without digest type (default)
                  -t, --text            accepted for compatibility; input is always read in binary mode
                  -z, --zero            end each output line with NUL, not newline,
                                          and disable file name escaping
                      --progress        show progress (bytes, percent, MB/s) on standard error;
                                          shown anyway for large inputs when it is a terminal

                The following five options are useful only when verifying checksums:
                      --ignore-missing  don't fail or report status for missing files
                      --quiet           don't print OK for each successfully verified file
                      --status          don't output anything, status code shows success
                      --strict          exit non-zero for improperly formatted checksum lines
                  -w, --warn            warn about improperly formatted checksum lines

                      --help        display this help and exit
                      --version     output version information and exit

                The sums are computed as described in GB/T 32905-2016. Output and checking are those of
                coreutils' 'cksum -a sm3 --untagged': each line is the checksum, two spaces and the name
                ('SM3 (name) = checksum' with --tag); names with a newline, carriage return or backslash
                are escaped and such lines start with a backslash. --check reads either form.

                Exit status: 0 if all is well, 1 if a file could not be read, a checksum did not match or
                the command line is wrong, 2 if OpenSSL's libcrypto or its SM3 cannot be used.
                """);
        return EXIT_OK;
    }

    private int version() {
        // The provider loads libcrypto at its first service, not here: unavailability() is what loads it.
        SM3Provider provider = new SM3Provider();
        output.line(Output.PROGRAM + " (sm3-ffm) " + provider.getVersionStr() + "\n");
        Optional<Exception> unavailable = SM3Provider.unavailability();
        if (unavailable.isPresent()) {
            return unavailable(unavailable.get());
        }
        output.line(provider.getInfo() + "\n");
        return EXIT_OK;
    }

    /** Whether file descriptor {@code fd} is a terminal, asked of isatty(3); false when that cannot be asked. */
    private static boolean isTerminal(int fd) {
        try {
            Linker linker = Linker.nativeLinker();
            MethodHandle isatty = linker.downcallHandle(linker.defaultLookup().find("isatty").orElseThrow(),
                    FunctionDescriptor.of(JAVA_INT, JAVA_INT));
            return (int) isatty.invokeExact(fd) == 1;
        } catch (Throwable e) {
            return false;
        }
    }
}
