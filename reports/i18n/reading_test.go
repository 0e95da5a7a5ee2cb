package i18n

import "testing"

// TestReading: figures in simctl's machine form, rewritten for reading:
// Russian decimal comma, thousands by a narrow no-break space (prose from
// five digits, tables from four), a no-break space before %, п. п.;
// Korean %p; what is part of a word or a setting left alone.
func TestReading(t *testing.T) {
	const nn, nb = "\u202f", "\u00a0"
	for _, c := range []struct {
		l         Lang
		in, prose string
		cell      string // "" = as prose
	}{
		{Ru, "боёв: 5,000", "боёв: 5000", "боёв: 5" + nn + "000"},
		{Ru, "51,789", "51" + nn + "789", ""},
		{Ru, "1,234,567.5", "1" + nn + "234" + nn + "567,5", ""},
		{Ru, "в 1.8 раза", "в 1,8 раза", ""},
		{Ru, "65.61% и 28.1%", "65,61" + nb + "% и 28,1" + nb + "%", "65,61% и 28,1%"},
		{Ru, "[93.24%, 94.57%]", "[93,24" + nb + "%; 94,57" + nb + "%]", "[93,24%; 94,57%]"},
		{Ru, "+1.25 pp", "+1,25" + nb + "п." + nb + "п.", ""},
		{Ru, "[-0.50, +2.10] pp", "[-0,50; +2,10]" + nb + "п." + nb + "п.", ""},
		{Ru, "[3, 5] и [1, x]", "[3; 5] и [1, x]", ""},
		{Ru, "при ширине 2 pp", "при ширине 2" + nb + "п." + nb + "п.", ""},
		{Ko, "폭 2 pp에서", "폭 2%p에서", ""},
		{Ru, "4.780 ± 0.043", "4,780 ± 0,043", ""},
		{Ru, "-0.5", "-0,5", ""},
		{Ru, "не менее 95% (95% ДИ)", "не менее 95" + nb + "% (95" + nb + "% ДИ)", "не менее 95% (95% ДИ)"},
		// Already Russian: a decimal comma is not a thousands separator.
		{Ru, "0,125 и 65,61" + nb + "%", "0,125 и 65,61" + nb + "%", ""},
		{Ru, "Gnoll ×3", "Gnoll ×3", ""},
		// Left alone: words, settings, versions, bare integers.
		{Ru, "p90 d20 1d8+3 x2 init=0.5 simctl 0.9.1 Hobgoblin#1..#5 run-1.5.json зерно 12345 3/10 19-20/x2", "p90 d20 1d8+3 x2 init=0.5 simctl 0.9.1 Hobgoblin#1..#5 run-1.5.json зерно 12345 3/10 19-20/x2", ""},
		{Ru, "2pp и 0.5pp", "2pp и 0.5pp", ""},
		{Ru, "app 1.5 ppm", "app 1,5 ppm", ""},
		// Korean: percentage points only.
		{Ko, "+1.25 pp", "+1.25%p", ""},
		{Ko, "[-0.50, +2.10] pp", "[-0.50, +2.10]%p", ""},
		{Ko, "5,000회 93.94%", "5,000회 93.94%", ""},
		// English: unchanged.
		{En, "+1.25 pp 51,789 0.53", "+1.25 pp 51,789 0.53", ""},
	} {
		if got := c.l.Reading(c.in); got != c.prose {
			t.Errorf("%s.Reading(%q) = %q, want %q", c.l, c.in, got, c.prose)
		}
		want := c.cell
		if want == "" {
			want = c.prose
		}
		if got := c.l.ReadingCell(c.in); got != want {
			t.Errorf("%s.ReadingCell(%q) = %q, want %q", c.l, c.in, got, want)
		}
	}
}

// TestFigureNumber: a number on a figure's axis or inside it, as l's
// prose writes it; anything else as it came.
func TestFigureNumber(t *testing.T) {
	const nn = "\u202f"
	for _, c := range []struct {
		l       Lang
		in, out string
	}{
		{Ru, "0.5", "0,5"},
		{Ru, "-1.5", "-1,5"},
		{Ru, "+2.25", "+2,25"},
		{Ru, "5000", "5000"},
		{Ru, "12000", "12" + nn + "000"},
		{Ru, "1234567.25", "1" + nn + "234" + nn + "567,25"},
		{Ru, "1e3", "1e3"},
		{Ru, "ready", "ready"},
		{Ru, "—", "—"},
		{Ru, "1.", "1."},
		{Ru, "--1", "--1"},
		{Ko, "0.5", "0.5"},
		{En, "12000", "12000"},
	} {
		if got := c.l.FigureNumber(c.in); got != c.out {
			t.Errorf("%s.FigureNumber(%q) = %q, want %q", c.l, c.in, got, c.out)
		}
	}
}
