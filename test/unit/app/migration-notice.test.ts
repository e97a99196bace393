import { describe, expect, it } from 'vitest'
import { migrationNotice } from '../../../src-main/app/migration-notice'

describe('the notice of a mirror being updated', () => {
  it('names the step, the steps and the migration of an update', () => {
    const notice = migrationNotice({ name: '0021-x', step: 2, steps: 3, isUpdate: true })
    expect(notice).toMatch(
      /^Updating your mirror for this version of Heliograph: step 2 of 3 \(0021-x\)\. /,
    )
    expect(notice).toContain('nothing is lost')
  })

  it('says nothing while a mirror is created: its steps take no time', () => {
    expect(migrationNotice({ name: '0001-x', step: 1, steps: 21, isUpdate: false })).toBeNull()
  })
})
