package io.weft.lab.cli;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A generator's parameters, as {@code generate} leaves them unmatched: {@code --name value} or
 * {@code --name=value}, kebab-case names becoming camelCase ({@code --nics-per-leaf} =
 * {@code --nicsPerLeaf}). Each family has its own names, checked by its generator.
 */
final class Args {
    private Args() {
    }

    static Map<String, String> params(List<String> words) throws UsageException {
        Map<String, String> params = new LinkedHashMap<>();
        for (int i = 0; i < words.size(); i++) {
            String w = words.get(i);
            if (!w.startsWith("--") || w.length() == 2) {
                throw new UsageException("unexpected argument \"" + w + "\" (usage: " + GenerateCommand.USAGE + ")");
            }
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
            if (params.putIfAbsent(name, value) != null) {
                throw new UsageException("--" + name + ": given twice");
            }
        }
        return params;
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
}
