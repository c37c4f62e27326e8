package io.weft.lab.cli;

/** Bad command line or bad input file: the message is printed as is and the CLI exits with 2. */
final class UsageException extends Exception {
    private static final long serialVersionUID = 1L;

    UsageException(String message) {
        super(message);
    }
}
