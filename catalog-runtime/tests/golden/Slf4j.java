// SLF4J 2.0's MessageFormatter.arrayFormat substitution (org.slf4j.helpers),
// restated so that generating the golden file needs only a JDK: `{}` takes
// the next argument, `\{}` is a literal `{}`, `\\{}` a backslash and a value.
public class Slf4j {
    public static String format(String pattern, Object[] args) {
        StringBuilder out = new StringBuilder();
        int i = 0, arg = 0;
        while (true) {
            int j = pattern.indexOf("{}", i);
            if (j == -1 || arg >= args.length) { out.append(pattern, i, pattern.length()); return out.toString(); }
            boolean escaped = j >= 1 && pattern.charAt(j - 1) == '\\';
            boolean doubled = j >= 2 && pattern.charAt(j - 2) == '\\';
            if (escaped && !doubled) { out.append(pattern, i, j - 1).append('{'); i = j + 1; continue; }
            out.append(pattern, i, escaped ? j - 1 : j).append(String.valueOf(args[arg++]));
            i = j + 2;
        }
    }
}
