import { join } from 'node:path'
import { openMirror } from '../../../src-main/db/open-mirror'

// The child of the kill-before-delivery process test: writes one alert into the outbox of
// the data folder argv[2]'s mirror, for the channel argv[3], as the evaluator would; prints
// "written <id>" and never goes on, so the test can SIGKILL it before any delivery.

const [dataDir, channel, n] = process.argv.slice(2)
if (!dataDir || !channel || !n)
  throw new Error('usage: write-alert-then-wait <dataDir> <channel> <n>')
const mirror = await openMirror({ file: join(dataDir, 'heliograph.sqlite') })
const nowSec = Math.floor(Date.now() / 1000)
const id = await mirror.alerts.insert({
  kind: 'rule',
  ruleId: 1,
  ruleName: 'Activity on Casual',
  healthKind: null,
  walletAddress: null,
  signature: `sig-${n}`,
  firedAtSec: nowSec,
  text: `New transaction ${n}`,
  detail: { signatures: [`sig-${n}`], amounts: [], transactionKind: null },
  deliverAfterSec: nowSec,
  dedupeKey: `1:sig-${n}`,
  channels: [channel],
})
process.stdout.write(`written ${id}\n`)
setInterval(() => {}, 60_000) // keeps the process alive until it is killed
