import { describe, expect, it } from 'vitest'
import { HealthKind } from '@shared/domain/alert-rules'
import { healthAction, healthActionFor } from '@shared/domain/health-text'
import { TeamRole } from '@shared/domain/team-roles'

// Banners by role: whoever cannot act on a condition is told whom to ask, never to do what
// their role cannot; the person at the machine, and a team account that can act, are told
// what to do.

describe('what to do about a condition, by who reads it', () => {
  it('the person at this machine may act on everything, in the words status prints', () => {
    for (const kind of HealthKind.options)
      expect(healthActionFor(kind, null)).toEqual({ action: healthAction(kind), mayAct: true })
  })

  it('a viewer acts on nothing and is told to ask, naming who can', () => {
    for (const kind of HealthKind.options) {
      const { action, mayAct } = healthActionFor(kind, 'viewer')
      expect(mayAct, kind).toBe(false)
      expect(action, kind).toMatch(/ask an (editor or an )?admin/i)
      expect(action, kind).not.toMatch(/in Settings|--api-key/)
    }
  })

  it('an editor changes the budget and the plan; the key and the server are an admin’s', () => {
    expect(healthActionFor('budget-100', 'editor').mayAct).toBe(true)
    expect(healthActionFor('rate-limited', 'editor').mayAct).toBe(true)
    expect(healthActionFor('key-rejected', 'editor')).toEqual({
      action: 'Ask an admin to replace it; syncing resumes once a call succeeds.',
      mayAct: false,
    })
    expect(healthActionFor('disk-full', 'editor').mayAct).toBe(false)
    for (const kind of HealthKind.options) expect(healthActionFor(kind, 'admin').mayAct).toBe(true)
    expect(TeamRole.options).toEqual(['viewer', 'editor', 'admin'])
  })
})
