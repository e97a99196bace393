import { chmodSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { openSqliteMirror } from '../../../src-main/db/sqlite/mirror'
import { runExport } from '../../../src-main/export/export-job'
import { canOverridePermissions } from '../../helpers/unprivileged-child'

// A child process for the export test of a folder that is not writable, run where
// permission bits apply (root without its override capabilities would write anyway): in
// the folder argv[2], it opens a fresh mirror, makes a folder it may read but not write,
// exports into it and prints, as JSON, whether it could ignore permissions and what the
// export answered.

const [dir] = process.argv.slice(2)
if (!dir) throw new Error('usage: export-into-locked-folder <folder>')
const mirror = await openSqliteMirror(join(dir, 'heliograph.sqlite'))
const locked = join(dir, 'locked')
mkdirSync(locked)
chmodSync(locked, 0o500)
let answer: { name: string; message: string }
try {
  const summary = await runExport({
    source: mirror.exports,
    kind: 'balance-changes',
    outPath: join(locked, 'x.csv'),
  })
  answer = { name: 'written', message: summary.path }
} catch (error) {
  answer = { name: (error as Error).name, message: (error as Error).message }
} finally {
  chmodSync(locked, 0o700)
  await mirror.close()
}
process.stdout.write(
  JSON.stringify({ canOverridePermissions: canOverridePermissions(), ...answer }),
)
