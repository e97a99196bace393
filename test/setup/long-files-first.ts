import { BaseSequencer, type TestSpecification } from 'vitest/node'

/**
 * Files that run longest for their size: the watch fuzz's seeded days, a virtual watch day
 * on each engine, and every profile synced on both engines. Without timings from an earlier
 * run (a fresh clone, CI) vitest starts the largest files first, and these small files
 * started last, so the run's tail was one of them.
 */
const LONG_FILES = [
  'sync/watch-fuzz.seed-1.test.ts',
  'sync/watch-fuzz.seed-2.test.ts',
  'sync/watch-day.postgres.test.ts',
  'sync/watch-day.test.ts',
  'sync/balance-at.test.ts',
  'sync/charts-say-what-they-show.test.ts',
]

/** Vitest's order (failed, then slowest, then largest first), with the long files ahead. */
export class LongFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (spec: TestSpecification): number => {
      const i = LONG_FILES.findIndex((name) => spec.moduleId.endsWith(`/${name}`))
      return i === -1 ? LONG_FILES.length : i
    }
    return [...(await super.sort(files))].sort((a, b) => rank(a) - rank(b))
  }
}
