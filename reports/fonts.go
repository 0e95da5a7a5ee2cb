package reports

import (
	"os"
	"simctl/sim/msg"
	"strings"
	"sync"
	"unicode"

	"golang.org/x/image/font/opentype"
	"golang.org/x/image/font/sfnt"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/recorder"

	"simctl/reports/i18n"
)

// Figures in Korean need a font with Hangul, which gonum/plot's embedded
// Liberation fonts lack (they carry Latin, Greek and Cyrillic, so English
// and Russian figures need nothing more). UseFigureFont loads one: a file
// the user names (--font FILE) or the first of systemFonts found. A figure
// with any text its font cannot draw is an error naming the characters and
// the package to install, never a figure with boxes for glyphs.
//
// Concurrency: UseFigureFont is called before figures are made (the CLI
// calls it once, after parsing flags); figures of any language may then be
// made and rendered from any goroutine.

// systemFonts are where Debian and Ubuntu install fonts with Hangul:
// fonts-nanum first (small, one face), then fonts-noto-cjk.
var systemFonts = []string{
	"/usr/share/fonts/truetype/nanum/NanumGothic.ttf",
	"/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
	"/usr/share/fonts/truetype/noto/NotoSansCJK-Regular.ttc",
	"/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc", // Fedora, Arch
	"/usr/share/fonts/google-noto-cjk/NotoSansCJK-Regular.ttc",
}

// FontPackageHint is what a user without a Hangul font is told to install.
const FontPackageHint = "install a font with Hangul (Debian/Ubuntu: apt-get install fonts-nanum, or fonts-noto-cjk) or name one with --font FILE"

// fontHint is FontPackageHint as a message, translated with the error it
// ends.
func fontHint() msg.Text { return msg.New(FontPackageHint) }

var (
	fontMu sync.RWMutex
	// figureFonts[lang] is the typeface of that language's figures; a
	// language not in it uses Liberation Sans.
	figureFonts = map[i18n.Lang]font.Font{}
	// svgFamilies[family] is the CSS fallback list SVG text gets for a
	// loaded font's family name.
	svgFamilies = map[string]string{}
)

// liberation is gonum/plot's embedded font, the default of every figure.
var liberation = font.Font{Typeface: "Liberation", Variant: "Sans"}

// UseFigureFont makes the figures of l use the font in file; with file
// "", a Korean figure's font is looked for among the system's (English and
// Russian need none). It fails when the file cannot be read or parsed, or
// when the font lacks the letters of l (checked on l's whole message
// catalog), or, for Korean, when no file is named and none is installed.
func UseFigureFont(l i18n.Lang, file string) error {
	if file == "" {
		if l.Or() != i18n.Ko {
			return nil
		}
		for _, f := range systemFonts {
			if _, err := os.Stat(f); err == nil {
				file = f
				break
			}
		}
		if file == "" {
			return msg.Errorf("Korean figures need a font with Hangul, and none is installed: %s", fontHint())
		}
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return msg.Errorf("%s: %v", "--font", err)
	}
	face, err := parseFont(data)
	if err != nil {
		return msg.Errorf("--font %s: not a TrueType or OpenType font (.ttf, .otf, .ttc): %v", file, err)
	}
	var buf sfnt.Buffer
	// The letters of l's catalog and the digits: punctuation is checked
	// figure by figure (checkGlyphs), as a font may lack a sign (Nanum
	// Gothic has no U+2212 minus) that no figure draws.
	letters := strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return r
		}
		return -1
	}, i18n.Letters(l))
	if miss := []rune(missing(face, &buf, letters)); len(miss) > 0 {
		var more msg.Text
		if len(miss) > 12 {
			miss, more = miss[:12], msg.New(" and %d more", len(miss)-12)
		}
		return msg.Errorf("--font %s: the font has no glyphs for %q%s, which %s figures use; %s", file, string(miss), more, l.Or(), fontHint())
	}
	family, err := face.Name(&buf, sfnt.NameIDFamily)
	if err != nil || family == "" {
		family = "simctl-" + string(l.Or())
	}
	fnt := font.Font{Typeface: font.Typeface("simctl-" + string(l.Or())), Variant: "Sans"}
	font.DefaultCache.Add(font.Collection{{Font: fnt, Face: face}})
	fontMu.Lock()
	figureFonts[l.Or()] = fnt
	svgFamilies[family] = "'" + strings.ReplaceAll(family, "'", "") + "'," + fallbacks(l)
	fontMu.Unlock()
	return nil
}

// fallbacks are the CSS families an SVG of l falls back to where the
// loaded font is not installed.
func fallbacks(l i18n.Lang) string {
	if l.Or() == i18n.Ko {
		return "NanumGothic,'Noto Sans CJK KR','Noto Sans KR','Malgun Gothic','Apple SD Gothic Neo',sans-serif"
	}
	return "'Liberation Sans',Arimo,Arial,Helvetica,sans-serif"
}

// parseFont reads a font file or the first font of a collection (.ttc:
// every face of Noto Sans CJK has all of Hangul).
func parseFont(data []byte) (*opentype.Font, error) {
	if f, err := opentype.Parse(data); err == nil {
		return f, nil
	}
	c, err := opentype.ParseCollection(data)
	if err != nil {
		return nil, err
	}
	if c.NumFonts() == 0 {
		return nil, msg.Errorf("an empty font collection")
	}
	return c.Font(0)
}

// missing lists the letters of s (once each) that face has no glyph for.
func missing(face *opentype.Font, buf *sfnt.Buffer, s string) string {
	var out []rune
	seen := map[rune]bool{}
	for _, r := range s {
		if seen[r] || unicode.IsSpace(r) || unicode.IsControl(r) {
			continue
		}
		seen[r] = true
		if g, err := face.GlyphIndex(buf, r); err != nil || g == 0 {
			out = append(out, r)
		}
	}
	return string(out)
}

// figureFont is the typeface of l's figures.
func figureFont(l i18n.Lang) font.Font {
	fontMu.RLock()
	defer fontMu.RUnlock()
	if f, ok := figureFonts[l.Or()]; ok {
		return f
	}
	return liberation
}

// checkGlyphs draws f onto a recorder and fails if any text drawn has a
// character its font lacks (a name in Hangul in an English report, a
// Korean report without a Hangul font): the figure would show boxes.
func (f *Figure) checkGlyphs() error {
	var rec recorder.Canvas
	f.render(draw.NewCanvas(&rec, f.W, f.H))
	var buf sfnt.Buffer
	var bad []string
	seen := map[string]bool{}
	for _, a := range rec.Actions {
		fs, ok := a.(*recorder.FillString)
		if !ok {
			continue
		}
		face := font.DefaultCache.Lookup(fs.Font, fs.Size)
		if face.Face == nil {
			return msg.Errorf("figure %s: font %s %s is not loaded", f.Name, fs.Font.Typeface, fs.Font.Variant)
		}
		if m := missing(face.Face, &buf, fs.String); m != "" && !seen[m] {
			seen[m] = true
			bad = append(bad, m)
		}
	}
	if len(bad) > 0 {
		return msg.Errorf("figure %s: its font has no glyphs for %q; %s", f.Name, strings.Join(bad, ""), fontHint())
	}
	return nil
}

// legendText is a legend entry's text in l. gonum/plot leaves a space's
// width between a right-aligned legend text and its swatch; with a loaded
// font (NanumGothic's narrow space, its Hangul drawn a little wider than
// measured at 96 dpi) the text touches the swatch, so two more spaces
// keep them apart. Liberation's figures are unchanged.
func legendText(l i18n.Lang, s string) string {
	if figureFont(l) != liberation {
		return s + "  "
	}
	return s
}
