import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createCore } from '../../../src-main/app/core'
import { runCli } from '../../helpers/cli-in-process'
import { startAlertReceiver, type AlertReceiver } from '../../helpers/alert-receiver'
import { makeTempDir } from '../../helpers/temp-dir'

// `heliograph notify`: where channels may point, and that their secrets (the URL's path,
// the signing secret, Telegram's bot token) never come back out: not in list, JSON, the
// IPC answer, an error, or the mirror.

const SIGNING_SECRET = 'sign-me-8f2d41c9'
const BOT_TOKEN = '123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw'

describe('CLI: notify', () => {
  const temp = makeTempDir()
  let receiver: AlertReceiver
  const cli = (...args: string[]) => runCli(['--data-dir', temp.dir, 'notify', ...args])

  beforeAll(async () => {
    receiver = await startAlertReceiver()
  })
  afterAll(async () => {
    await receiver.close()
    temp.remove()
  })

  it('refuses plain http to another computer, naming the host', async () => {
    const run = await cli('add', 'ops', '--format', 'json', '--url', 'http://example.com/hook')
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(/must use https.*got host example\.com/)
  })

  it('refuses a private-network address unless allowed, naming the rule', async () => {
    for (const [url, rule] of [
      ['https://10.1.2.3/hook', 'a private network (10.0.0.0/8)'],
      ['https://[fd00::1]/hook', 'a private network (fc00::/7)'],
      ['https://169.254.169.254/', 'a link-local network (169.254.0.0/16)'],
      ['https://100.64.0.1/', 'a carrier-grade NAT network (100.64.0.0/10)'],
      [
        'https://[64:ff9b::a00:1]/',
        'a private network (10.0.0.0/8) (it reaches the IPv4 host 10.0.0.1)',
      ],
      [
        'https://[::10.0.0.1]/',
        'a private network (10.0.0.0/8) (it reaches the IPv4 host 10.0.0.1)',
      ],
      ['https://0.0.0.0/', 'this network (unspecified) (0.0.0.0/8)'],
      ['https://[::]/', 'this network (unspecified) (::/128)'],
    ] as const) {
      const run = await cli('add', 'inside', '--format', 'json', '--url', url)
      expect(run.code, url).toBe(1)
      expect(run.stderr).toContain(
        `is on ${rule}; only an admin may allow that, with --allow-private-network.`,
      )
    }
    const allowed = await cli(
      'add',
      'inside',
      '--format',
      'json',
      '--url',
      'https://192.168.1.20/hook',
      '--allow-private-network',
    )
    expect(allowed.code, allowed.stderr).toBe(0)
    expect(allowed.stdout).toMatch(
      /inside {2}json {2}https:\/\/192\.168\.1\.20\/\*\*\* {2}private network allowed/,
    )
  })

  it('asks Telegram for its bot token and chat id', async () => {
    const run = await cli(
      'add',
      'phone',
      '--format',
      'telegram',
      '--url',
      'https://api.telegram.org/x',
    )
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(/takes --bot-token and --chat-id/)
    const added = await cli(
      'add',
      'phone',
      '--format',
      'telegram',
      '--bot-token',
      BOT_TOKEN,
      '--chat-id',
      '-100200',
    )
    expect(added.code, added.stderr).toBe(0)
    expect(added.stdout).toContain(
      'phone  telegram  https://api.telegram.org/bot***/sendMessage  chat -100200',
    )
  })

  it('adds a json channel to a loopback receiver, tests it, and never shows its secrets', async () => {
    const added = await cli(
      'add',
      'ops',
      '--format',
      'json',
      '--url',
      receiver.url,
      '--secret',
      SIGNING_SECRET,
    )
    expect(added.code, added.stderr).toBe(0)

    const tested = await cli('test', 'ops')
    expect(tested.code, tested.stderr).toBe(0)
    expect(tested.stdout).toContain('Delivered to ops: HTTP 200')
    const post = receiver.received.at(-1)!
    expect(post.path).toBe(new URL(receiver.url).pathname)
    expect(JSON.parse(post.body)).toMatchObject({ isTest: true, id: 0 })
    expect(post.headers['heliograph-signature']).toMatch(/^sha256=[0-9a-f]{64}$/)

    receiver.answers.push({ status: 403, body: `forbidden: ${new URL(receiver.url).pathname}` })
    const refused = await cli('test', 'ops')
    expect(refused.code).toBe(1)
    expect(refused.stdout).toContain('Not delivered to ops: HTTP 403: forbidden: ***')

    const listed = await cli('list', '--json')
    const text = await cli('list')
    const core = await createCore({
      dataDir: temp.dir,
      shell: 'web',
      version: '0',
      dataSource: 'service',
    })
    let ipc: unknown
    try {
      ipc = await core.dispatch('notify:list', undefined)
    } finally {
      await core.close()
    }
    const channels = JSON.parse(listed.stdout) as {
      name: string
      urlShown: string
      isSigned: boolean
    }[]
    expect(channels.map((c) => c.name)).toEqual(['inside', 'ops', 'phone'])
    expect(channels.find((c) => c.name === 'ops')).toMatchObject({
      urlShown: `${new URL(receiver.url).origin}/***`,
      isSigned: true,
    })
    const secretParts = [SIGNING_SECRET, BOT_TOKEN, 's3cretPathToken']
    const mirrorText = readFileSync(join(temp.dir, 'heliograph.sqlite')).toString('latin1')
    for (const shown of [
      listed.stdout,
      text.stdout,
      JSON.stringify(ipc),
      refused.stdout,
      refused.stderr,
      mirrorText,
    ])
      for (const secret of secretParts) expect(shown).not.toContain(secret)
    // Kept like the API key: a file only the user can read.
    const secretsFile = join(temp.dir, 'notify-channels.json')
    expect(statSync(secretsFile).mode & 0o777).toBe(0o600)
    expect(readdirSync(temp.dir)).toContain('notify-channels.json')
  })

  it('removes a channel and its secrets; a second remove names it', async () => {
    expect((await cli('remove', 'phone')).code).toBe(0)
    expect(readFileSync(join(temp.dir, 'notify-channels.json'), 'utf8')).not.toContain(BOT_TOKEN)
    const again = await cli('remove', 'phone')
    expect(again.code).toBe(1)
    expect(again.stderr).toMatch(/No channel named “phone”/)
  })
})
