import type { MigrationProgress } from '../db/migration-progress'

/**
 * What a person is told while their mirror is updated for this version of Heliograph, one
 * line per step; null for a mirror being created (its migrations take no time).
 *
 * @example
 * migrationNotice({ name: '0021-filter-columns-in-indexes', step: 2, steps: 3, isUpdate: true })
 * // 'Updating your mirror for this version of Heliograph: step 2 of 3 (0021-filter-columns-in-indexes). …'
 */
export function migrationNotice(progress: MigrationProgress): string | null {
  if (!progress.isUpdate) return null
  const { name, step, steps } = progress
  return (
    `Updating your mirror for this version of Heliograph: step ${step} of ${steps} (${name}). ` +
    'On a large mirror a step can take a few minutes; if Heliograph is stopped meanwhile, ' +
    'the step starts over next time and nothing is lost.'
  )
}
