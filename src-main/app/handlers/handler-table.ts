import type { z } from 'zod'
import type { Channel, ChannelOutput, contract } from '@shared/ipc/contract'

/** One handler per channel, receiving the input already parsed by the channel's schema. */
export type HandlerTable = {
  [C in Channel]: (
    input: z.output<(typeof contract)[C]['input']>,
  ) => Promise<ChannelOutput<C>> | ChannelOutput<C>
}
