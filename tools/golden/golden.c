/* Writes, as JSON lines, what glibc's printf prints for many format strings
 * and values: the golden table that catalog-runtime/tests/golden.rs checks
 * the format compiler against. Run by tools/golden/generate.sh. */
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* A JSON string of `s`, or, when `s` is not UTF-8, its bytes in hex. */
static void json_text(const char *key, const char *hex_key, const unsigned char *s, size_t n) {
    int ascii_or_utf8 = 1;
    for (size_t i = 0; i < n;) {
        unsigned char c = s[i];
        size_t len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
        if (len == 0 || i + len > n) { ascii_or_utf8 = 0; break; }
        for (size_t k = 1; k < len; k++)
            if ((s[i + k] >> 6) != 2) ascii_or_utf8 = 0;
        i += len;
    }
    if (!ascii_or_utf8) {
        printf("\"%s\":\"", hex_key);
        for (size_t i = 0; i < n; i++) printf("%02x", s[i]);
        printf("\"");
        return;
    }
    printf("\"%s\":\"", key);
    for (size_t i = 0; i < n; i++) {
        unsigned char c = s[i];
        if (c == '"' || c == '\\') printf("\\%c", c);
        else if (c < 0x20 || c == 0x7f) printf("\\u%04x", c);
        else putchar(c);
    }
    printf("\"");
}

static void row_start(const char *format) {
    printf("{");
    json_text("format", "format_hex", (const unsigned char *)format, strlen(format));
    printf(",\"args\":[");
}

static void row_end(const char *buf, int n) {
    printf("],");
    json_text("out", "out_hex", (const unsigned char *)buf, (size_t)n);
    printf("}\n");
}

static char buf[4096];

static void signed_row(const char *format, const char *type, long long v) {
    int n;
    /* The conversion's length modifier says how the argument is passed. */
    if (strstr(format, "ll") || strstr(format, "j") || strstr(format, "z")) n = snprintf(buf, sizeof buf, format, v);
    else if (strstr(format, "l")) n = snprintf(buf, sizeof buf, format, (long)v);
    else n = snprintf(buf, sizeof buf, format, (int)v);
    row_start(format);
    printf("{\"type\":\"%s\",\"value\":\"%lld\"}", type, v);
    row_end(buf, n);
}

static void unsigned_row(const char *format, const char *type, unsigned long long v) {
    int n;
    if (strstr(format, "ll") || strstr(format, "j") || strstr(format, "z")) n = snprintf(buf, sizeof buf, format, v);
    else if (strstr(format, "l")) n = snprintf(buf, sizeof buf, format, (unsigned long)v);
    else n = snprintf(buf, sizeof buf, format, (unsigned)v);
    row_start(format);
    printf("{\"type\":\"%s\",\"value\":\"%llu\"}", type, v);
    row_end(buf, n);
}

static void double_row(const char *format, double v) {
    int n = snprintf(buf, sizeof buf, format, v);
    row_start(format);
    /* %.17g reads back exactly; nan and inf spelled for the reader. */
    if (isnan(v)) printf("{\"type\":\"double\",\"value\":\"%sNaN\"}", signbit(v) ? "-" : "");
    else if (isinf(v)) printf("{\"type\":\"double\",\"value\":\"%sInf\"}", v < 0 ? "-" : "+");
    else printf("{\"type\":\"double\",\"value\":\"%.17g\"}", v);
    row_end(buf, n);
}

static void string_row(const char *format, const char *s) {
    int n = snprintf(buf, sizeof buf, format, s);
    row_start(format);
    printf("{\"type\":\"string\",\"hex\":\"");
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) printf("%02x", *p);
    printf("\"}");
    row_end(buf, n);
}

static void star_row(const char *format, int star, double v, int is_string, const char *s) {
    int n = is_string ? snprintf(buf, sizeof buf, format, star, s) : snprintf(buf, sizeof buf, format, star, v);
    row_start(format);
    printf("{\"type\":\"int\",\"value\":\"%d\"},", star);
    if (is_string) {
        printf("{\"type\":\"string\",\"hex\":\"");
        for (const unsigned char *p = (const unsigned char *)s; *p; p++) printf("%02x", *p);
        printf("\"}");
    } else {
        printf("{\"type\":\"double\",\"value\":\"%.17g\"}", v);
    }
    row_end(buf, n);
}

#define LEN(a) (sizeof(a) / sizeof((a)[0]))

int main(void) {
    static const char *signed_formats[] = {
        "[%d]", "[%i]", "[%5d]", "[%-5d]", "[%05d]", "[%+d]", "[% d]", "[%.3d]", "[%.0d]", "[%+.0d]",
        "[% .0d]", "[%8.3d]", "[%-+8.3d]", "[%+05d]", "[%'d]", "[%ld]", "[%li]", "[%hd]", "[%hhd]",
    };
    static const long long ints[] = {0, 1, -1, 7, 42, -42, 100, 127, -128, 32767, -32768, INT_MAX, INT_MIN};
    for (size_t f = 0; f < LEN(signed_formats); f++)
        for (size_t i = 0; i < LEN(ints); i++) {
            long long v = ints[i];
            if (strstr(signed_formats[f], "hh") && (v < SCHAR_MIN || v > SCHAR_MAX)) continue;
            if (strstr(signed_formats[f], "h") && (v < SHRT_MIN || v > SHRT_MAX)) continue;
            signed_row(signed_formats[f], "int", v);
        }
    static const char *long_formats[] = {"[%lld]", "[%lli]", "[%jd]", "[%zd]", "[%+lld]", "[%25lld]", "[%-25lld]", "[%025lld]"};
    static const long long longs[] = {0, -1, LLONG_MAX, LLONG_MIN, 1234567890123LL};
    for (size_t f = 0; f < LEN(long_formats); f++)
        for (size_t i = 0; i < LEN(longs); i++) signed_row(long_formats[f], "long long", longs[i]);

    static const char *unsigned_formats[] = {
        "[%u]", "[%o]", "[%#o]", "[%x]", "[%X]", "[%#x]", "[%#X]", "[%08x]", "[%#08x]", "[%.0x]", "[%#.0o]",
        "[%.0u]", "[%#.3o]", "[%5.3u]", "[%-#10x]", "[%hhu]", "[%hx]", "[%lu]", "[%lx]",
    };
    static const unsigned long long uints[] = {0, 1, 7, 8, 42, 255, 256, 65535, 4294967295ULL};
    for (size_t f = 0; f < LEN(unsigned_formats); f++)
        for (size_t i = 0; i < LEN(uints); i++) {
            unsigned long long v = uints[i];
            if (strstr(unsigned_formats[f], "hh") && v > UCHAR_MAX) continue;
            if (strstr(unsigned_formats[f], "h") && v > USHRT_MAX) continue;
            unsigned_row(unsigned_formats[f], "unsigned", v);
        }
    static const char *ulong_formats[] = {"[%llu]", "[%llx]", "[%llX]", "[%#llx]", "[%llo]", "[%#llo]", "[%zu]", "[%ju]", "[%30llu]"};
    static const unsigned long long ulongs[] = {0, ULLONG_MAX, 9223372036854775808ULL, 0xdeadbeefULL};
    for (size_t f = 0; f < LEN(ulong_formats); f++)
        for (size_t i = 0; i < LEN(ulongs); i++) unsigned_row(ulong_formats[f], "unsigned long long", ulongs[i]);

    static const char *double_formats[] = {
        "[%f]", "[%F]", "[%e]", "[%E]", "[%g]", "[%G]", "[%a]", "[%A]", "[%.0f]", "[%.2f]", "[%#.0f]",
        "[%10.3f]", "[%-10.3f]", "[%010.3f]", "[%+f]", "[% f]", "[%.3e]", "[%#g]", "[%.3g]", "[%.0g]",
        "[%#.0e]", "[%.10g]", "[%.17g]", "[%.3a]", "[%.0a]", "[%15a]", "[%015a]", "[%+.1A]", "[%lf]", "[%-+12.4e]",
    };
    double doubles[] = {
        0.0, -0.0, 1.0, -1.0, 1.5, -2.5, 0.1, 100.0, 1e6, 1e21, 123456.789, 1e-7, 1e-5, 3.141592653589793,
        5e-324, DBL_MAX, DBL_MIN, 0.5, 9.5, 0.000123, NAN, -NAN, INFINITY, -INFINITY,
    };
    for (size_t f = 0; f < LEN(double_formats); f++)
        for (size_t i = 0; i < LEN(doubles); i++) double_row(double_formats[f], doubles[i]);

    static const char *string_formats[] = {"[%s]", "[%10s]", "[%-10s]", "[%.2s]", "[%.0s]", "[%5.1s]", "[%-3s]"};
    static const char *strings[] = {
        "", "abc", "hello world", "a\"b\\c", "tab\there", "\x07\x1b", "\xc3\xa9", "e\xcc\x81", "\xe6\x97\xa5\xe6\x9c\xac",
        "\xf0\x9f\x98\x80", "\xc3(ab", "%d", " padded ",
    };
    for (size_t f = 0; f < LEN(string_formats); f++)
        for (size_t i = 0; i < LEN(strings); i++) string_row(string_formats[f], strings[i]);

    static const char *char_formats[] = {"[%c]", "[%5c]", "[%-3c]"};
    static const long long chars[] = {'a', ' ', '"', '%', '~', '0'};
    for (size_t f = 0; f < LEN(char_formats); f++)
        for (size_t i = 0; i < LEN(chars); i++) signed_row(char_formats[f], "char", chars[i]);

    static const int stars[] = {0, 1, 9, -9};
    for (size_t i = 0; i < LEN(stars); i++) {
        star_row("[%*f]", stars[i], -2.5, 0, NULL);
        star_row("[%.*f]", stars[i] < 0 ? 2 : stars[i], 3.14159, 0, NULL);
        star_row("[%*s]", stars[i], 0, 1, "abc");
        star_row("[%.*s]", stars[i] < 0 ? 1 : stars[i], 0, 1, "abcdef");
    }
    return 0;
}
