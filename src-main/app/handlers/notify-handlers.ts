import type { NotifyDesk } from '../../alerts/notify-desk'
import type { HandlerGroup } from './handler-table'

/** Handlers of the `notify:*` channels: outbound alert channels, their secrets kept in main. */
export function notifyHandlers(desk: NotifyDesk) {
  return {
    'notify:list': () => desk.list(),
    'notify:add': (input) => desk.add(input),
    'notify:remove': ({ name }) => desk.remove(name),
    'notify:test': ({ name }) => desk.test(name),
  } satisfies HandlerGroup
}
