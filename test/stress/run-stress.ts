// `npm run stress`: 100 SIGKILLs of `heliograph sync` at random moments, then the mirror
// is compared with the simulator's truth.
import { runKillLoop } from './kill-loop'

const kills = Number(process.argv[2] ?? 100)
const report = await runKillLoop({ kills, log: (line) => console.log(line) })
console.log('')
console.log(
  `kills: ${report.kills} (runs that finished before their kill: ${report.runsFinishedBeforeKill})`,
)
console.log(`integrity_check: ${report.integrity}`)
console.log(
  `pages served: ${report.servedPages}, committed: ${report.committedPages}, fetched twice: ${report.pagesFetchedTwice}`,
)
console.log(
  report.mismatches.length === 0
    ? 'mirror equals truth: every item present exactly once'
    : `MISMATCHES:\n${report.mismatches.join('\n')}`,
)
process.exitCode = report.mismatches.length === 0 && report.integrity === 'ok' ? 0 : 1
