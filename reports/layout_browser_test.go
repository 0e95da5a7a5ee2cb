package reports

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"simctl/reports/i18n"
)

// browser finds Debian's headless-capable Chromium: skipped without it,
// unless SIMCTL_E2E is set (CI installs it).
func browser(t *testing.T) string {
	for _, name := range []string{"/usr/bin/chromium", "chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("SIMCTL_E2E") != "" {
		t.Fatal("SIMCTL_E2E is set but chromium is not installed (apt-get install chromium)")
	}
	t.Skip("chromium is not installed; set SIMCTL_E2E=1 to make this an error")
	return ""
}

// overflowJS lists what a reader of the page would not see whole: an
// element wider than the page, or a table or code block that hides part
// of itself behind a scroll bar (lost in a screenshot or a print).
const overflowJS = `(() => { const bad = [];
	const W = document.documentElement.clientWidth;
	for (const el of document.querySelectorAll("table, pre, figure, p, li, h1, h2, h3")) {
		const r = el.getBoundingClientRect();
		if (r.width === 0) continue;
		const what = el.tagName.toLowerCase() + " " + JSON.stringify(el.textContent.slice(0, 60));
		if (r.right > W + 1) bad.push(what + " ends at " + Math.round(r.right) + " px, past the page's " + W);
		if (el.scrollWidth > el.clientWidth + 1 && (el.tagName === "TABLE" || el.tagName === "PRE")) bad.push(what + " hides " + (el.scrollWidth - el.clientWidth) + " px behind a scroll bar");
	}
	return bad; })()`

// TestReportFitsPage opens report.html of a run, a sweep and a comparison
// in headless Chromium at 1280 px, in English and Russian, and fails on
// any table or code block cut at the right (the comparison's table ran
// off the page, and its reproduce command with it); then again as printed
// on A4.
func TestReportFitsPage(t *testing.T) {
	bin := browser(t)
	for _, l := range []i18n.Lang{i18n.En, i18n.Ru} {
		b, dir := fixtureBundle(t)
		b.Lang = l
		if _, err := b.Write(dir); err != nil {
			t.Fatal(err)
		}
		page := "file://" + filepath.Join(dir, "report.html")
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		actx, cancelA := chromedp.NewExecAllocator(ctx, chromedp.ExecPath(bin), chromedp.Flag("headless", true), chromedp.NoSandbox, chromedp.DisableGPU,
			chromedp.NoFirstRun, chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1280, 1000))
		bctx, cancelB := chromedp.NewContext(actx)
		if err := chromedp.Do(bctx, chromedp.Navigate(page)); err != nil {
			t.Fatal(err)
		}
		bad, err := chromedp.Run(bctx, chromedp.Evaluate[[]string](overflowJS))
		if err != nil {
			t.Fatal(err)
		}
		for _, x := range bad {
			t.Errorf("%s, 1280 px: %s", l, x)
		}
		// Printed: A4 is 794 CSS px wide; less the printer's margins.
		printed := chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			_, err := cdp.Call(ctx, tg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Media: "print"})
			return err
		})
		if err := chromedp.Do(bctx, printed, chromedp.EmulateViewport(720, 1000)); err != nil {
			t.Fatal(err)
		}
		bad, err = chromedp.Run(bctx, chromedp.Evaluate[[]string](overflowJS))
		if err != nil {
			t.Fatal(err)
		}
		for _, x := range bad {
			t.Errorf("%s, printed: %s", l, x)
		}
		cancelB()
		cancelA()
		cancel()
	}
}
