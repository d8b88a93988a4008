// Renders jobs of tools/golden/corpora.py with Java itself: one job per line
// on standard input, tab-separated: the style (`java-format`: String.format;
// `slf4j`: org.slf4j.helpers.MessageFormatter.arrayFormat from slf4j-api),
// the format as hex UTF-8, then each argument as KIND:HEX (s a String, l a
// Long, i an Integer, d a Double, b a Boolean). Writes the result as hex
// UTF-8, or `!` when the formatter refuses the call. Run with the slf4j-api
// jar on the class path and -Duser.language=en -Duser.country=US.
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

public class Corpora {
    static String unhex(String hex) {
        byte[] bytes = new byte[hex.length() / 2];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) Integer.parseInt(hex.substring(2 * i, 2 * i + 2), 16);
        }
        return new String(bytes, StandardCharsets.UTF_8);
    }

    static String hex(String text) {
        StringBuilder out = new StringBuilder();
        for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
            out.append(String.format("%02x", b & 0xff));
        }
        return out.toString();
    }

    static Object arg(String cell) {
        int colon = cell.indexOf(':');
        String kind = cell.substring(0, colon);
        String text = unhex(cell.substring(colon + 1));
        switch (kind) {
            case "l": return Long.parseLong(text);
            case "i": return Integer.parseInt(text);
            case "d": return Double.parseDouble(text);
            case "b": return Boolean.parseBoolean(text);
            default: return text;
        }
    }

    public static void main(String[] argv) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        PrintStream out = new PrintStream(System.out, false, "UTF-8");
        String line;
        while ((line = in.readLine()) != null) {
            if (line.isEmpty()) continue;
            String[] cells = line.split("\t", -1);
            String format = unhex(cells[1]);
            List<Object> args = new ArrayList<>();
            for (int i = 2; i < cells.length; i++) args.add(arg(cells[i]));
            try {
                String text = cells[0].equals("slf4j")
                    ? org.slf4j.helpers.MessageFormatter.arrayFormat(format, args.toArray()).getMessage()
                    : String.format(format, args.toArray());
                out.println(hex(text));
            } catch (RuntimeException e) {
                out.println("!");
            }
        }
        out.flush();
    }
}
