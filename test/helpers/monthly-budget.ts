import { writeSettings } from '../../src-main/app/app-settings'
import { databasePath } from '../../src-main/app/data-dir'
import { openMirror } from '../../src-main/db/open-mirror'

/** Sets a data folder's monthly budget as the person would in Settings (its own, not the plan's). */
export async function setMonthlyBudget(dataDir: string, credits: number): Promise<void> {
  const mirror = await openMirror({ file: databasePath(dataDir) })
  try {
    await writeSettings(mirror.settings, { monthlyBudget: credits }, 1_800_000_000)
  } finally {
    await mirror.close()
  }
}
