package org.hfilekit.harness;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Minimal "--name value" option parser; unknown or unused options are errors, not silently ignored. */
final class Args {
  private final Map<String, String> options = new HashMap<>();
  private final List<String> positional = new ArrayList<>();
  private final Set<String> used = new HashSet<>();

  Args(String[] argv, int start) {
    for (int i = start; i < argv.length; i++) {
      String a = argv[i];
      if (a.startsWith("--")) {
        if (i + 1 >= argv.length) {
          throw new IllegalArgumentException("option " + a + " needs a value");
        }
        options.put(a.substring(2), argv[++i]);
      } else {
        positional.add(a);
      }
    }
  }

  String get(String name, String dflt) {
    used.add(name);
    return options.getOrDefault(name, dflt);
  }

  String require(String name) {
    String v = get(name, null);
    if (v == null) {
      throw new IllegalArgumentException("missing required option --" + name);
    }
    return v;
  }

  int getInt(String name, int dflt) {
    return Integer.parseInt(get(name, Integer.toString(dflt)));
  }

  long getLong(String name, long dflt) {
    return Long.parseLong(get(name, Long.toString(dflt)));
  }

  boolean getBool(String name, boolean dflt) {
    String v = get(name, Boolean.toString(dflt));
    if (!v.equals("true") && !v.equals("false")) {
      throw new IllegalArgumentException("--" + name + " must be true or false, got " + v);
    }
    return Boolean.parseBoolean(v);
  }

  List<String> positional() {
    return positional;
  }

  /** Call after reading every option: a typo in a fixture script must not pass unnoticed. */
  void checkAllUsed() {
    for (String k : options.keySet()) {
      if (!used.contains(k)) {
        throw new IllegalArgumentException("unknown option --" + k);
      }
    }
  }
}
