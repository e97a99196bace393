import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchChromium, screenshot } from '../helpers/chromium'
import { startAlertReceiver, type AlertReceiver } from '../helpers/alert-receiver'
import { startTestTeamServer, type TeamFixture } from '../helpers/team-server-fixture'
import { startTestWebShell } from '../helpers/web-shell-fixture'

// Settings → Alert channels (issue 30, part 4): a channel added through the form to a real
// receiver on loopback, listed without its secrets, tested and removed; refusals said in
// words beside the form; on the team server only an admin manages channels. And the web
// shell's page shows each `alerts:desktop` push as a browser notification once allowed.

type Fixture = Awaited<ReturnType<typeof startTestWebShell>>

/** The signing secret typed into the form: it must never come back to the page. */
const SIGNING_SECRET = 'e2e-signing-s3cret-9f41'

/**
 * Records every notification the page makes with the browser's real Notification API
 * (the constructor is the browser's own; this only keeps what it was given).
 */
const RECORD_NOTIFICATIONS = `(() => {
  const Real = window.Notification
  if (!Real) return
  const made = []
  window.__notifications = made
  window.Notification = class extends Real {
    constructor(title, options) {
      super(title, options)
      made.push({ title, body: options?.body ?? null, tag: options?.tag ?? null })
    }
  }
})()`

describe('e2e: alert channels in Settings', () => {
  let fx: Fixture
  let browser: Browser
  let page: Page
  let receiver: AlertReceiver

  const section = () => page.getByRole('region', { name: 'Alert channels' })
  const form = () => page.getByRole('form', { name: 'Add an alert channel' })
  const row = (name: string) => section().locator(`tr[data-channel="${name}"]`)
  const formError = () => form().getByRole('alert')

  beforeAll(async () => {
    receiver = await startAlertReceiver()
    fx = await startTestWebShell()
    browser = await launchChromium()
    page = await browser.newPage({ viewport: { width: 1280, height: 900 }, locale: 'en-US' })
    await page.goto(fx.shell.url)
    await page.getByRole('navigation').getByRole('link', { name: 'Settings' }).click()
    await section().getByText('No outbound channels yet').waitFor()
  }, 60_000)
  afterAll(async () => {
    await browser?.close()
    await fx?.stop()
    await receiver?.close()
  })

  it('adds a json channel through the form; the list shows its host, never its secrets', async () => {
    await form().getByLabel(/^Name/).fill('ops')
    await form().getByLabel('Format').selectOption('json')
    await form().getByLabel(/^URL/).fill(receiver.url)
    await form()
      .getByLabel(/^Signing secret/)
      .fill(SIGNING_SECRET)
    await form().getByRole('button', { name: 'Add channel' }).click()
    await row('ops').waitFor()
    expect(await form().getByRole('status').textContent()).toMatch(/Channel “ops” added/)

    const origin = new URL(receiver.url).origin
    expect(await row('ops').textContent()).toMatch(
      new RegExp(`ops\\s*JSON\\s*signed\\s*${origin.replace(/\./g, '\\.')}/\\*\\*\\*`),
    )
    // Nothing typed as a secret is anywhere in the page: not its text, markup or fields.
    const fieldValues = await page.$$eval('input', (inputs) => inputs.map((i) => i.value))
    for (const secret of [SIGNING_SECRET, 's3cretPathToken']) {
      expect(await page.content()).not.toContain(secret)
      expect(fieldValues.join('\n')).not.toContain(secret)
    }
    await screenshot(page, 'alert-channels-listed')
  })

  it('"Send test" reaches the receiver, signed, and says what came of it', async () => {
    await row('ops').getByRole('button', { name: 'Send test' }).click()
    const outcome = section().getByRole('status', { name: 'Test of ops' })
    await expect.poll(() => outcome.textContent()).toBe('Test delivered (HTTP 200).')
    expect(receiver.received).toHaveLength(1)
    const [post] = receiver.received
    expect(JSON.parse(post?.body ?? '{}')).toMatchObject({ isTest: true, id: 0 })
    expect(post?.headers['heliograph-signature']).toMatch(/^sha256=[0-9a-f]{64}$/)

    // A receiver that refuses: its status and reason, in words.
    receiver.answers.push({ status: 500, body: 'receiver is down' })
    await row('ops').getByRole('button', { name: 'Send test' }).click()
    await expect
      .poll(() => outcome.textContent())
      .toBe('Test not delivered — HTTP 500: receiver is down.')
    expect(receiver.received).toHaveLength(2)
  })

  it('refusals are shown in words beside the form: http to another host, a name taken', async () => {
    await form().getByLabel(/^Name/).fill('outside')
    await form().getByLabel(/^URL/).fill('http://example.com/hook')
    await form().getByRole('button', { name: 'Add channel' }).click()
    await expect
      .poll(() => formError().textContent())
      .toMatch(/must use https.*got host example\.com/)
    await screenshot(page, 'alert-channels-add-refused')
    expect(await row('outside').count()).toBe(0)

    await form().getByLabel(/^Name/).fill('ops')
    await form().getByLabel(/^URL/).fill(receiver.url)
    await form().getByRole('button', { name: 'Add channel' }).click()
    await expect.poll(() => formError().textContent()).toMatch(/A channel named “ops” exists/)

    // Telegram takes a bot token and a chat id, checked like the CLI's.
    await form().getByLabel('Format').selectOption('telegram')
    await form().getByLabel(/^Name/).fill('phone')
    await form()
      .getByLabel(/^Bot token/)
      .fill('not-a-token')
    await form()
      .getByLabel(/^Chat id/)
      .fill('-100123')
    await form().getByRole('button', { name: 'Add channel' }).click()
    await expect
      .poll(() => formError().textContent())
      .toMatch(/does not look like a Telegram bot token/)
    // The token typed is not kept in the form once sent.
    expect(
      await form()
        .getByLabel(/^Bot token/)
        .inputValue(),
    ).toBe('')
  })

  it('Remove asks first; Cancel keeps the channel, the confirm removes it', async () => {
    await row('ops').getByRole('button', { name: 'Remove' }).click()
    const confirm = section().getByRole('alertdialog', { name: 'Remove ops' })
    expect(await confirm.textContent()).toMatch(/Rules that name it stop sending there/)
    await confirm.getByRole('button', { name: 'Cancel' }).click()
    expect(await confirm.count()).toBe(0)
    expect(await row('ops').count()).toBe(1)

    await row('ops').getByRole('button', { name: 'Remove' }).click()
    await confirm.getByRole('button', { name: 'Remove ops' }).click()
    await section().getByText('No outbound channels yet').waitFor()
    const listed = await fx.core.dispatch('notify:list', undefined)
    expect(listed).toEqual({ ok: true, result: [] })
  })
})

describe('e2e: desktop notifications in the web shell', () => {
  let fx: Fixture
  let browser: Browser
  const contexts: BrowserContext[] = []

  beforeAll(async () => {
    fx = await startTestWebShell()
    browser = await launchChromium()
  }, 60_000)
  afterAll(async () => {
    for (const context of contexts) await context.close()
    await browser?.close()
    await fx?.stop()
  })

  async function settingsPage(permissions: string[]): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    contexts.push(context)
    if (permissions.length > 0)
      await context.grantPermissions(permissions, { origin: new URL(fx.shell.url).origin })
    await context.addInitScript(RECORD_NOTIFICATIONS)
    const page = await context.newPage()
    await page.goto(fx.shell.url)
    await page.getByRole('navigation').getByRole('link', { name: 'Settings' }).click()
    return page
  }
  /** The state in words, as read (the markup's line breaks are spaces). */
  const stateOf = async (page: Page) =>
    ((await page.getByRole('status', { name: 'Desktop notifications state' }).textContent()) ?? '')
      .replace(/\s+/g, ' ')
      .trim()
  const made = (page: Page) =>
    page.evaluate(() => (window as unknown as { __notifications: unknown[] }).__notifications)

  it('allowed: an alerts:desktop push becomes a browser notification, tagged per alert', async () => {
    const page = await settingsPage(['notifications'])
    await expect.poll(() => stateOf(page)).toMatch(/^Desktop notifications: allowed\./)
    // The push the deliverer sends for an alert's desktop delivery, over the page's socket.
    fx.core.events.emit('alerts:desktop', {
      alertId: 7,
      title: 'Treasury out · Wallet 1',
      body: 'Sent 12,000 USDC to sunny.sol',
    })
    await expect
      .poll(() => made(page))
      .toEqual([
        {
          title: 'Treasury out · Wallet 1',
          body: 'Sent 12,000 USDC to sunny.sol',
          tag: 'heliograph-alert-7',
        },
      ])
  })

  it('not asked yet: the button asks, and meanwhile an alert shows on the page', async () => {
    const page = await settingsPage([])
    await expect.poll(() => stateOf(page)).toMatch(/not asked yet/)
    expect(await page.getByRole('button', { name: 'Allow desktop notifications' }).count()).toBe(1)
    fx.core.events.emit('alerts:desktop', { alertId: 8, title: 'Wakes', body: 'Cold wallet moved' })
    await expect
      .poll(() => page.getByRole('log', { name: 'Notifications' }).textContent())
      .toContain('Wakes: Cold wallet moved')
    expect(await made(page)).toEqual([])
    await screenshot(page, 'alert-channels-desktop-not-asked')
    // The person's click asks the browser; this context grants nothing, so it is blocked.
    await page.getByRole('button', { name: 'Allow desktop notifications' }).click()
    await expect
      .poll(() => stateOf(page))
      .toMatch(/blocked in this browser\. .* To unblock: open the site settings/)
    await screenshot(page, 'alert-channels-desktop-blocked')
  })
})

describe('e2e: on the team server only an admin manages alert channels', () => {
  let fx: TeamFixture
  let browser: Browser
  let receiver: AlertReceiver
  const contexts: BrowserContext[] = []

  beforeAll(async () => {
    receiver = await startAlertReceiver()
    fx = await startTestTeamServer({
      users: [
        { name: 'vera', role: 'viewer' },
        { name: 'ed', role: 'editor' },
      ],
    })
    const added = await fx.core.dispatch('notify:add', {
      name: 'ops',
      format: 'json',
      url: receiver.url,
    })
    expect(added.ok).toBe(true)
    browser = await launchChromium()
  }, 60_000)
  afterAll(async () => {
    for (const context of contexts) await context.close()
    await browser?.close()
    await fx?.stop()
    await receiver?.close()
  })

  async function signedInSettings(name: string): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    contexts.push(context)
    const page = await context.newPage()
    await page.goto(`${fx.origin}/`)
    await page.getByLabel('Name').fill(name)
    await page.getByLabel('Password').fill(fx.password(name))
    await page.getByRole('button', { name: 'Sign in' }).click()
    await expect.poll(() => new URL(page.url()).pathname).toBe('/')
    await page.goto(`${fx.origin}/#/settings`)
    return page
  }

  for (const [name, role] of [
    ['vera', 'viewer'],
    ['ed', 'editor'],
  ] as const) {
    it(`a${role === 'editor' ? 'n' : ''} ${role} sees the list; every managing control is disabled, saying why`, async () => {
      const page = await signedInSettings(name)
      const section = page.getByRole('region', { name: 'Alert channels' })
      await section.locator('tr[data-channel="ops"]').waitFor()
      const refusal = `Your role (${role}) cannot manage alert channels — ask an admin.`
      for (const button of ['Send test', 'Remove', 'Add channel']) {
        const control = section.getByRole('button', { name: button, exact: true })
        expect(await control.isDisabled(), button).toBe(true)
        expect(await control.getAttribute('title'), button).toBe(refusal)
      }
      expect(await section.getByLabel(/^URL/).isDisabled()).toBe(true)
      expect(await section.getByRole('note').textContent()).toContain(refusal)
      if (role === 'viewer') {
        await section.scrollIntoViewIfNeeded()
        await screenshot(page, 'alert-channels-viewer')
      }
    })
  }
})
