// The one check of the Node version, shared by the `heliograph` command and the npm
// scripts (each runs `node scripts/check-node.mjs && …` first). The version needed is
// package.json's "engines": better-sqlite3 13 crashes on older Nodes instead of failing.
// Plain JavaScript that parses on old Nodes, since that is where it has to speak.
import { readFileSync } from 'node:fs'
import { pathToFileURL } from 'node:url'

const packageJson = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'))

/** The major version of Node the project needs, from `engines.node` (">=24"). */
export const REQUIRED_NODE_MAJOR = Number(/^>=(\d+)$/.exec(packageJson.engines.node)[1])

/** Whether this Node is new enough. */
export function isNodeSupported(version = process.versions.node) {
  return Number(version.split('.')[0]) >= REQUIRED_NODE_MAJOR
}

/** One line saying which Node is needed, which one this is, and how to get the right one. */
export function nodeTooOldMessage() {
  return (
    `heliograph: needs Node ${REQUIRED_NODE_MAJOR} or later; this is Node ${process.versions.node} ` +
    `(${process.execPath}). Run \`npm install\` in the project: it brings its own Node ` +
    `${REQUIRED_NODE_MAJOR} (the "node" dev dependency), which npm scripts put first on PATH.`
  )
}

const isRunDirectly =
  process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href
if (isRunDirectly && !isNodeSupported()) {
  console.error(nodeTooOldMessage())
  process.exit(1)
}
