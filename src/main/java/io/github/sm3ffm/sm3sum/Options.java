package io.github.sm3ffm.sm3sum;

import java.util.ArrayList;
import java.util.List;

/**
 * The command line of sm3sum, parsed the way GNU getopt_long parses coreutils' (options and operands in
 * any order, {@code --} ends options, bundled short options, unambiguous prefixes of long options),
 * with the same messages, so scripts see the same behaviour.
 */
final class Options {
    enum Action { HASH, CHECK, HELP, VERSION }

    /** A command line that cannot be used; the message is printed before "Try 'sm3sum --help'...". */
    static final class UsageException extends Exception {
        private static final long serialVersionUID = 1L;

        UsageException(String message) {
            super(message);
        }
    }

    private enum Option {
        BINARY("binary", 'b'), CHECK("check", 'c'), TEXT("text", 't'), WARN("warn", 'w'), ZERO("zero", 'z'),
        TAG("tag", '\0'), UNTAGGED("untagged", '\0'), IGNORE_MISSING("ignore-missing", '\0'),
        QUIET("quiet", '\0'), STATUS("status", '\0'), STRICT("strict", '\0'), PROGRESS("progress", '\0'),
        HELP("help", '\0'), VERSION("version", '\0');

        final String longName;
        final char shortName;

        Option(String longName, char shortName) {
            this.longName = longName;
            this.shortName = shortName;
        }
    }

    Action action = Action.HASH;
    boolean tag;
    boolean zero;
    boolean ignoreMissing;
    boolean quiet;
    boolean status;
    boolean strict;
    boolean warn;
    boolean progress;
    final List<String> operands = new ArrayList<>();

    private Options() {
    }

    static Options parse(String... args) throws UsageException {
        Options o = new Options();
        boolean check = false;
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (arg.equals("--")) {
                o.operands.addAll(List.of(args).subList(i + 1, args.length));
                break;
            }
            List<Option> given = new ArrayList<>();
            if (arg.startsWith("--")) {
                given.add(longOption(arg.substring(2)));
            } else if (arg.startsWith("-") && arg.length() > 1) {
                for (char c : arg.substring(1).toCharArray()) {
                    given.add(shortOption(c));
                }
            } else {
                o.operands.add(arg);
                continue;
            }
            for (Option option : given) {
                switch (option) {
                    case HELP, VERSION -> {
                        // Like getopt_long in coreutils: acted on as soon as it is read.
                        o.action = option == Option.HELP ? Action.HELP : Action.VERSION;
                        return o;
                    }
                    case CHECK -> check = true;
                    case BINARY, TEXT -> {
                        // Input is always read as bytes, as on every GNU system.
                    }
                    case TAG -> o.tag = true;
                    case UNTAGGED -> o.tag = false;
                    case ZERO -> o.zero = true;
                    case IGNORE_MISSING -> o.ignoreMissing = true;
                    case PROGRESS -> o.progress = true;
                    case STRICT -> o.strict = true;
                    // The last of --status, --warn and --quiet wins, as in coreutils.
                    case STATUS -> o.setReporting(true, false, false);
                    case WARN -> o.setReporting(false, true, false);
                    case QUIET -> o.setReporting(false, false, true);
                }
            }
        }
        if (check) {
            o.action = Action.CHECK;
            if (o.zero) {
                throw new UsageException("the --zero option is not supported when verifying checksums");
            }
        } else {
            onlyWhenChecking(o.ignoreMissing, "ignore-missing");
            onlyWhenChecking(o.status, "status");
            onlyWhenChecking(o.warn, "warn");
            onlyWhenChecking(o.quiet, "quiet");
            onlyWhenChecking(o.strict, "strict");
        }
        if (o.operands.isEmpty()) {
            o.operands.add("-");
        }
        return o;
    }

    private static void onlyWhenChecking(boolean given, String name) throws UsageException {
        if (given) {
            throw new UsageException("the --" + name + " option is meaningful only when verifying checksums");
        }
    }

    private void setReporting(boolean status, boolean warn, boolean quiet) {
        this.status = status;
        this.warn = warn;
        this.quiet = quiet;
    }

    private static Option shortOption(char c) throws UsageException {
        for (Option option : Option.values()) {
            if (option.shortName == c) {
                return option;
            }
        }
        throw new UsageException("invalid option -- '" + c + "'");
    }

    private static Option longOption(String text) throws UsageException {
        int eq = text.indexOf('=');
        String name = eq < 0 ? text : text.substring(0, eq);
        List<Option> matches = new ArrayList<>();
        for (Option option : Option.values()) {
            if (option.longName.equals(name)) {
                matches = List.of(option);
                break;
            }
            if (option.longName.startsWith(name)) {
                matches.add(option);
            }
        }
        if (matches.isEmpty()) {
            throw new UsageException("unrecognized option '--" + text + "'");
        }
        if (matches.size() > 1) {
            StringBuilder message = new StringBuilder("option '--" + name + "' is ambiguous; possibilities:");
            matches.forEach(m -> message.append(" '--").append(m.longName).append('\''));
            throw new UsageException(message.toString());
        }
        Option option = matches.get(0);
        if (eq >= 0) {
            throw new UsageException("option '--" + option.longName + "' doesn't allow an argument");
        }
        return option;
    }
}
