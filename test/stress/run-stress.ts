// `npm run stress [-- kill [N]]`: N SIGKILLs (default 100) of `heliograph sync` at random
// moments, then the mirror is compared with the simulator's truth.
// `npm run stress -- fuzz [N] [SEED]`: N web shell fuzz cases (default 50,000) against a
// real `heliograph serve`; SEED defaults to a fresh one, printed to replay the run.
import { runKillLoop } from './kill-loop'
import { runWebShellFuzz } from './web-shell-fuzz'

const [what = 'kill', ...rest] = process.argv.slice(2)

if (what === 'fuzz') {
  const cases = Number(rest[0] ?? 50_000)
  const seed = Number(rest[1] ?? Math.floor(Math.random() * 2 ** 31))
  console.log(`web shell fuzz: ${cases} cases, seed ${seed}`)
  const report = await runWebShellFuzz({ cases, seed, log: (line) => console.log(line) })
  console.log(`cases run: ${report.cases} ${JSON.stringify(report.byKind)}`)
  console.log(`answers: ${JSON.stringify(report.answers)}`)
  console.log(`contract replies: ${report.channelReplies}`)
  console.log(
    `alive: ${report.alive ? 'yes' : 'no'}, answering: ${report.answering ? 'yes' : 'no'}`,
  )
  if (report.failure) console.log(report.failure)
  process.exitCode = report.alive && report.answering ? 0 : 1
} else {
  const kills = Number((what === 'kill' ? rest[0] : what) ?? 100)
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
}
