// Java's own stack traces, through SLF4J's simple logger (Debian's
// libslf4j-java): an exception with its cause logged after the line that
// introduces it, and the same uncaught (the JVM's own `Exception in thread`).
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

public class App {
    static final Logger log = LoggerFactory.getLogger(App.class);

    static void store(String key) throws java.io.IOException {
        throw new java.io.IOException("disk full writing " + key);
    }

    static void handle(String key) {
        try {
            store(key);
        } catch (java.io.IOException e) {
            throw new IllegalStateException("unable to persist session " + key, e);
        }
    }

    public static void main(String[] args) {
        log.info("starting");
        try {
            handle("s1");
        } catch (RuntimeException e) {
            log.error("request failed for session s1", e);
        }
        log.warn("slow consumer detected for client 7");
        handle("s2");
    }
}
