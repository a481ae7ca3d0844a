// Lighthouse (mobile, its defaults) on each URL given, in one Chromium; prints one JSON object:
// {url: {scores: {category: 0..100}, cls, bytes, failing: [audit ids below 1]}}.
// Used by tests/test_lighthouse.py; CHROME_PATH names the browser (Debian's Chromium).
import lighthouse from "lighthouse";
import * as chromeLauncher from "chrome-launcher";

const urls = process.argv.slice(2);
const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROME_PATH,
  chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu"],
});
const out = {};
try {
  for (const url of urls) {
    const result = await lighthouse(url, {
      port: chrome.port, output: "json", logLevel: "error",
      onlyCategories: ["performance", "accessibility", "best-practices", "seo"],
    });
    const lhr = result.lhr;
    const failing = [];
    for (const category of Object.values(lhr.categories)) {
      for (const ref of category.auditRefs) {
        const audit = lhr.audits[ref.id];
        if (ref.weight > 0 && audit.score !== null && audit.score < 1) {
          failing.push(`${category.id}/${ref.id}: ${audit.displayValue || audit.score}`);
        }
      }
    }
    out[url] = {
      scores: Object.fromEntries(Object.entries(lhr.categories).map(([id, c]) => [id, Math.round(c.score * 100)])),
      cls: lhr.audits["cumulative-layout-shift"].numericValue,
      bytes: lhr.audits["total-byte-weight"].numericValue,
      error: lhr.runtimeError ? lhr.runtimeError.message : null,
      failing,
    };
  }
} finally {
  await chrome.kill();
}
process.stdout.write(JSON.stringify(out, null, 1) + "\n");
