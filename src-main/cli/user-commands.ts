import type { Command } from 'commander'
import { Option } from 'commander'
import { TeamRole } from '@shared/domain/team-roles'
import { AppError } from '@shared/ipc/ipc-errors'
import type { GlobalOptions } from './cli-core'
import { openAccountsMirror } from './team-accounts'
import { printLine } from './terminal-output'
import { cliContext } from './cli-context'

/** Names people sign in with: short, no spaces or look-alike characters. */
const USER_NAME = /^[a-z0-9][a-z0-9._-]{0,63}$/i

function checkName(name: string): string {
  if (!USER_NAME.test(name)) {
    throw new AppError(
      `User name “${name}” is not valid: use 1–64 letters, digits, '.', '_' or '-', starting with a letter or digit.`,
    )
  }
  return name
}

const roleOption = (): Option =>
  new Option('--role <role>', 'viewer, editor or admin')
    .choices(TeamRole.options)
    .makeOptionMandatory()

/** `user add|list|passwd|remove|set-role`: the team server's accounts. */
export function registerUserCommands(program: Command): void {
  const user = program.command('user').description("manage the team server's accounts")
  const options = (): GlobalOptions => program.opts<GlobalOptions>()

  user
    .command('add')
    .description('add an account and print its one-time password')
    .argument('<name>', 'the name to sign in with')
    .addOption(roleOption())
    .action(async (name: string, opts: { role: TeamRole }) => {
      checkName(name)
      const mirror = await openAccountsMirror(options(), 'create')
      try {
        const { hashPassword, newOneTimePassword } = await import('../shell/team/password-hashing')
        const password = newOneTimePassword()
        await mirror.team.addUser(name, opts.role, await hashPassword(password), nowSec())
        printLine(`Added ${name} (${opts.role}). One-time password, shown only now:`)
        printLine(password)
      } finally {
        await mirror.close()
      }
    })

  user
    .command('list')
    .description('list the accounts and their roles')
    .action(async () => {
      const mirror = await openAccountsMirror(options(), 'change')
      try {
        const users = await mirror.team.listUsers()
        if (users.length === 0) printLine('No users yet: add one with `user add NAME --role R`.')
        for (const u of users)
          printLine(`${u.name.padEnd(24)} ${u.role.padEnd(7)} added ${isoDate(u.createdAtSec)}`)
      } finally {
        await mirror.close()
      }
    })

  user
    .command('passwd')
    .description('give an account a new one-time password and end its sessions')
    .argument('<name>')
    .action(async (name: string) => {
      const mirror = await openAccountsMirror(options(), 'change')
      try {
        const { hashPassword, newOneTimePassword } = await import('../shell/team/password-hashing')
        const password = newOneTimePassword()
        await mirror.team.setPassword(name, await hashPassword(password), 'one-time')
        printLine(
          `New one-time password for ${name}, shown only now (their sessions have ended; they choose their own at sign-in):`,
        )
        printLine(password)
      } finally {
        await mirror.close()
      }
    })

  user
    .command('remove')
    .description('remove an account and end its sessions')
    .argument('<name>')
    .action(async (name: string) => {
      const mirror = await openAccountsMirror(options(), 'change')
      try {
        await mirror.team.removeUser(name)
        printLine(`Removed ${name}.`)
      } finally {
        await mirror.close()
      }
    })

  user
    .command('set-role')
    .description("change an account's role (its open sessions follow at once)")
    .argument('<name>')
    .addOption(roleOption())
    .action(async (name: string, opts: { role: TeamRole }) => {
      const mirror = await openAccountsMirror(options(), 'change')
      try {
        await mirror.team.setRole(name, opts.role)
        printLine(`${name} is now ${opts.role}.`)
      } finally {
        await mirror.close()
      }
    })
}

function nowSec(): number {
  return Math.floor(cliContext().clock.nowMs() / 1000)
}

function isoDate(sec: number): string {
  return new Date(sec * 1000).toISOString().slice(0, 10)
}
