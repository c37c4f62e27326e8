package io.weft.karafcheck;

import java.util.LinkedHashMap;
import java.util.Map;

/** The rows of {@code bundle:list -t 0 -s}: symbolic name (and version) to id and state. */
final class BundleTable {
    /** One bundle as Karaf lists it. */
    static final class Row {
        final int id;
        final String state;
        final String version;
        final String symbolicName;

        Row(int id, String state, String version, String symbolicName) {
            this.id = id;
            this.state = state;
            this.version = version;
            this.symbolicName = symbolicName;
        }

        @Override
        public String toString() {
            return id + " " + symbolicName + "/" + version + " " + state;
        }
    }

    /** By "symbolicName/version": two versions of one bundle (ASM 5 and 8 here) are two rows. */
    final Map<String, Row> rows = new LinkedHashMap<>();

    static BundleTable parse(String listing) {
        BundleTable t = new BundleTable();
        for (String line : listing.split("\n")) {
            String[] c = line.split("│");
            if (c.length != 5 || !c[0].trim().matches("\\d+")) {
                continue;
            }
            Row r = new Row(Integer.parseInt(c[0].trim()), c[1].trim(), c[3].trim(), c[4].trim());
            t.rows.put(r.symbolicName + "/" + r.version, r);
        }
        return t;
    }

    Row bySymbolicName(String bsn) {
        for (Row r : rows.values()) {
            if (r.symbolicName.equals(bsn)) {
                return r;
            }
        }
        return null;
    }
}
