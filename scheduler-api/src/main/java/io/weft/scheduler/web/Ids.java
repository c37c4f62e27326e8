package io.weft.scheduler.web;

/**
 * The shape of every id in a path (job, NIC, link): the fabric file's id rule
 * (contracts/fabric.schema.json {@code $defs.id}), which job ids ({@code job-<uuid>}) also follow.
 * Anchored, because the OpenAPI document carries it as a JSON Schema pattern, which is unanchored.
 */
public final class Ids {
    public static final String PATTERN = "^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$";
    public static final String MESSAGE =
            "must be an id: a letter or digit, then up to 127 letters, digits, '.', '_' or '-'";

    private Ids() {
    }
}
