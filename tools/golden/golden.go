// Writes, as JSON lines, what Go's fmt prints for many format strings and
// values: the golden table that catalog-runtime/tests/golden.rs checks the
// format compiler against. Run by tools/golden/generate.sh.
package main

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"strconv"
	"unicode/utf8"
)

// arg is one argument as the table writes it: its Go type and its value
// (decimal for numbers, shortest 'g' for floats, hex bytes for strings).
type arg struct {
	Type  string `json:"type"`
	Value string `json:"value,omitempty"`
	Hex   *string `json:"hex,omitempty"`
}

type row struct {
	Format string `json:"format"`
	Args   []arg  `json:"args"`
	Out    string `json:"out,omitempty"`
	OutHex string `json:"out_hex,omitempty"`
}

func describe(v interface{}) arg {
	switch x := v.(type) {
	case int:
		return arg{"int", strconv.FormatInt(int64(x), 10), nil}
	case int8:
		return arg{"int8", strconv.FormatInt(int64(x), 10), nil}
	case int16:
		return arg{"int16", strconv.FormatInt(int64(x), 10), nil}
	case int32:
		return arg{"int32", strconv.FormatInt(int64(x), 10), nil}
	case int64:
		return arg{"int64", strconv.FormatInt(x, 10), nil}
	case uint8:
		return arg{"uint8", strconv.FormatUint(uint64(x), 10), nil}
	case uint16:
		return arg{"uint16", strconv.FormatUint(uint64(x), 10), nil}
	case uint32:
		return arg{"uint32", strconv.FormatUint(uint64(x), 10), nil}
	case uint64:
		return arg{"uint64", strconv.FormatUint(x, 10), nil}
	case float64:
		return arg{"float64", strconv.FormatFloat(x, 'g', -1, 64), nil}
	case float32:
		return arg{"float32", strconv.FormatFloat(float64(x), 'g', -1, 32), nil}
	case bool:
		return arg{"bool", strconv.FormatBool(x), nil}
	case string:
		h := hex.EncodeToString([]byte(x))
		return arg{"string", "", &h}
	case []byte:
		h := hex.EncodeToString(x)
		return arg{"bytes", "", &h}
	}
	panic(fmt.Sprintf("unknown type %T", v))
}

var out = json.NewEncoder(os.Stdout)

func emit(format string, args ...interface{}) {
	text := fmt.Sprintf(format, args...)
	r := row{Format: format}
	for _, a := range args {
		r.Args = append(r.Args, describe(a))
	}
	if utf8.ValidString(text) {
		r.Out = text
	} else {
		r.OutHex = hex.EncodeToString([]byte(text))
	}
	if err := out.Encode(r); err != nil {
		panic(err)
	}
}

// Each verb is written between brackets, so that the table also checks
// where a value ends.
func table(verbs []string, values []interface{}) {
	for _, verb := range verbs {
		for _, v := range values {
			emit("["+verb+"]", v)
		}
	}
}

func main() {
	out.SetEscapeHTML(false)
	ints := []interface{}{
		0, 1, -1, 7, 42, -42, 255, 65, 0x263a, 0x1F600, 0x10FFFF, 0x110000, 0xD800, 39, 34, 92, 10, 0x7f,
		int8(math.MinInt8), int8(math.MaxInt8), int16(math.MinInt16), int16(math.MaxInt16),
		int32(math.MinInt32), int32(math.MaxInt32), int64(math.MinInt64), int64(math.MaxInt64),
		uint8(255), uint16(math.MaxUint16), uint32(math.MaxUint32), uint64(math.MaxUint64), uint64(1 << 63),
	}
	table([]string{
		"%v", "%d", "%+d", "% d", "%5d", "%-5d", "%05d", "%-05d", "%.3d", "%.0d", "%8.3d", "%+05d", "% 05d",
		"%x", "%X", "%#x", "%#X", "%08x", "%#08x", "%-#8x", "% x", "%+x", "%.4x",
		"%b", "%#b", "%o", "%#o", "%O", "%08o",
		"%c", "%5c", "%-3c", "%q", "%+q", "%#q", "%#+q", "%5q", "%U", "%#U", "%.6U", "%10U",
		"%T", "%#v", "%+v", "%5v", "%-5v", "%05v",
	}, ints)

	floats := []interface{}{
		0.0, math.Copysign(0, -1), 1.0, -1.0, 1.5, -2.5, 0.1, 100.0, 1e6, 1e21, 1e20, 123456.789, 1e-7, 1e-5,
		3.141592653589793, 5e-324, math.MaxFloat64, 2.2250738585072014e-308, 4503599627370496.0, 0.000123,
		math.NaN(), math.Inf(1), math.Inf(-1),
		float32(1.2345678), float32(0.1), float32(3.4028235e38), float32(1e-45), float32(16777216), float32(-0.5),
		float32(math.Inf(1)), float32(math.NaN()), float32(1e21), float32(100),
	}
	table([]string{
		"%v", "%e", "%E", "%f", "%F", "%g", "%G", "%.2f", "%.0f", "%8.3f", "%-8.3f", "%08.3f", "%+f", "% f",
		"%+.3e", "%.3g", "%.10g", "%#g", "%#.3g", "%#.0f", "%#.0e", "%10v", "%-10v", "%010v", "%+v", "%+08.2f",
		"%x", "%X", "%.3x", "%#x", "%b", "%+x", "%12.2X",
		"%T", "%#v",
	}, floats)

	strs := []interface{}{
		"", "abc", "hello world", "a\"b\\c", "tab\there\nnew", "\x00\x07\x1b\x7f", "é", "e\u0301", "日本語", "☺",
		"😀", "\xc3(ab", "\xff", "a\xffb", "a\u2028b", "\u00ad", "\ufeff", "ff", "0x1f", "-42", "`raw`", "it's",
		"a b c", "%d", " padded ", "\U0010ffff", "\ue000",
	}
	table([]string{
		"%v", "%s", "%q", "%+q", "%#q", "%#+q", "%x", "%X", "% x", "% X", "%# x", "%#x", "%#X", "%08x", "%#08x",
		"%5s", "%-5s", "%05s", "%.2s", "%8.3s", "%.0s", "%10q", "%-10q", "%08q", "%.2q", "%.1x", "%10x", "%-10x",
		"%T", "%#v", "%5v", "%-8v", "%.3v",
	}, strs)

	bytes := []interface{}{[]byte("abc"), []byte{}, []byte{0xff, 0x00, 0x10}, []byte("\xc3(ab"), []byte("☺")}
	table([]string{"%s", "%q", "%x", "%X", "% x", "%#x", "%# X", "%08x", "%#08x", "%.2x", "%10s", "%T"}, bytes)

	bools := []interface{}{true, false}
	table([]string{"%v", "%t", "%5t", "%-6t", "%05t", "%T", "%#v", "%+v"}, bools)

	// Widths and precisions from arguments.
	for _, f := range []string{"[%*d]", "[%-*d]", "[%0*d]"} {
		for _, w := range []int{0, 1, 5, -5} {
			emit(f, w, 42)
		}
	}
	for _, p := range []int{0, 1, 3} {
		emit("[%.*f]", p, 3.14159)
		emit("[%.*s]", p, "abcdef")
		emit("[%*.*f]", 9, p, -2.5)
	}
	// Stars with explicit argument indexes: the count need not be the
	// argument before the value's.
	for _, w := range []int{0, 5, -5} {
		emit("[%[2]*[1]d]", 42, w)
		emit("[%-[2]*[1]s|%[1]q]", "ab", w)
	}
	emit("[%[3]*.[2]*[1]f]", 12.0, 2, 6)
	emit("[%[1]*.[3]*[2]f]", 8, 1.5, 3)
	emit("[%[2]*[1]d %[3]*[1]x]", 255, 6, -4)
	// Several values in one message, with explicit argument indexes.
	emit("[%d %s %q]", 7, "x y", "z")
	emit("[%[2]d %[1]q %[2]x]", "a", 255)
	emit("[%s=%d]", "k", uint64(math.MaxUint64))
}
