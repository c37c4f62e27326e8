package io.weft.lab.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The arguments of one verb: positional words, {@code --name value} / {@code --name=value} options
 * (kebab-case names become camelCase: {@code --nics-per-leaf} = {@code --nicsPerLeaf}), and
 * {@code -o FILE} / {@code --output FILE}. Hand-parsed: the grammar is this small.
 */
final class Args {
    final List<String> positional = new ArrayList<>();
    final Map<String, String> options = new LinkedHashMap<>();
    String output;

    static Args parse(List<String> words) throws UsageException {
        Args a = new Args();
        for (int i = 0; i < words.size(); i++) {
            String w = words.get(i);
            if (w.equals("-o") || w.equals("--output")) {
                if (i + 1 >= words.size()) {
                    throw new UsageException(w + ": needs a file name");
                }
                if (a.output != null) {
                    throw new UsageException(w + ": given twice");
                }
                a.output = words.get(++i);
            } else if (w.startsWith("--") && w.length() > 2) {
                String name = w.substring(2);
                String value;
                int eq = name.indexOf('=');
                if (eq >= 0) {
                    value = name.substring(eq + 1);
                    name = name.substring(0, eq);
                } else {
                    if (i + 1 >= words.size()) {
                        throw new UsageException("--" + name + ": needs a value");
                    }
                    value = words.get(++i);
                }
                name = camel(name);
                if (a.options.putIfAbsent(name, value) != null) {
                    throw new UsageException("--" + name + ": given twice");
                }
            } else if (w.startsWith("-") && w.length() > 1) {
                throw new UsageException("unknown option " + w);
            } else {
                a.positional.add(w);
            }
        }
        return a;
    }

    private static String camel(String kebab) {
        StringBuilder b = new StringBuilder();
        boolean up = false;
        for (char c : kebab.toCharArray()) {
            if (c == '-') {
                up = true;
            } else {
                b.append(up ? Character.toUpperCase(c) : c);
                up = false;
            }
        }
        return b.toString();
    }

    /** Exactly {@code n} positional words, else a usage error naming what is expected. */
    void expectPositional(int n, String usage) throws UsageException {
        if (positional.size() != n) {
            throw new UsageException("usage: " + usage);
        }
    }

    void expectNoOptions(String usage) throws UsageException {
        if (!options.isEmpty()) {
            throw new UsageException("unknown option --" + options.keySet().iterator().next() + " (usage: " + usage + ")");
        }
    }
}
