// Open a page in headless Chromium (Playwright) and print, as JSON, what a reader sees: the
// result tables cell by cell, the plots' marks, the curriculum line, every console message,
// page error and network request. Usage: node page_probe.cjs FILE_URL
// Needs NODE_PATH to hold playwright-core and CHROMIUM to name the browser (Debian's).
"use strict";
const { chromium } = require("playwright-core");

async function main() {
  const url = process.argv[2];
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    args: [
      "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
      "--disable-component-update", "--no-first-run",
    ],
  });
  try {
    const page = await browser.newPage();
    const console_ = [];
    const errors = [];
    const requests = [];
    page.on("console", (m) => console_.push({ type: m.type(), text: m.text() }));
    page.on("pageerror", (e) => errors.push(String(e)));
    page.on("request", (r) => requests.push(r.url()));
    const response = await page.goto(url, { waitUntil: "load" });
    const seen = await page.evaluate(() => {
      const text = (el) => (el ? el.textContent.trim() : null);
      const tables = [...document.querySelectorAll("table.results")].map((t) => ({
        stage: t.dataset.stage,
        tier: t.dataset.tier,
        rows: [...t.querySelectorAll("tbody tr")].map((tr) =>
          Object.fromEntries([...tr.querySelectorAll("td")].map((td) => [td.className, text(td)])),
        ),
      }));
      const plots = [...document.querySelectorAll("svg.plot")].map((svg) => {
        const box = svg.getBoundingClientRect();
        return {
          label: svg.getAttribute("aria-label"),
          width: box.width,
          height: box.height,
          rows: svg.querySelectorAll("g.agent-row").length,
          runs: svg.querySelectorAll("circle.run").length,
          means: svg.querySelectorAll("path.mean").length,
          intervals: svg.querySelectorAll("line.ci").length,
        };
      });
      return {
        title: document.title,
        curriculum: text(document.querySelector("#curriculum")),
        head: text(document.querySelector("#ledger-head")),
        entries: document.querySelectorAll("#entries tbody tr").length,
        scripts: document.querySelectorAll("script").length,
        tables,
        plots,
      };
    });
    process.stdout.write(
      JSON.stringify({ status: response ? response.status() : null, console: console_, errors, requests, ...seen }),
    );
  } finally {
    await browser.close();
  }
}

main().catch((e) => {
  process.stderr.write(String(e && e.stack ? e.stack : e));
  process.exit(3);
});
