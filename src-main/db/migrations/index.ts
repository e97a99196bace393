import type { Migration } from 'kysely/migration'
import * as m0001 from './0001-initial'
import * as m0002 from './0002-mirror'
import * as m0003 from './0003-review-indexes'
import * as m0004 from './0004-drop-global-signature-index'
import * as m0005 from './0005-balance-watch'
import * as m0006 from './0006-whole-wallet'
import * as m0007 from './0007-credit-attribution'
import * as m0008 from './0008-lookup-cache'
import * as m0009 from './0009-webhooks'
import * as m0010 from './0010-stream-top-read'
import * as m0011 from './0011-team-accounts'
import * as m0012 from './0012-webhook-deliveries'
import * as m0013 from './0013-sync-leases'
import * as m0014 from './0014-search-indexes'
import * as m0015 from './0015-one-time-passwords'
import * as m0016 from './0016-alerts'
import * as m0017 from './0017-feed-wallet-order'
import * as m0018 from './0018-feed-filter-order'
import * as m0019 from './0019-transaction-directions'
import * as m0020 from './0020-feed-wallet-filter-order'
import * as m0021 from './0021-filter-columns-in-indexes'
import * as m0022 from './0022-service-variety'
import * as m0023 from './0023-history-loads'
import * as m0024 from './0024-alert-read-marks'
import * as m0025 from './0025-team-changes'

/**
 * Every migration in order. Listed here rather than read from the folder so the bundled
 * main process carries them; names are their file names, which sort in apply order.
 */
export const migrations: Record<string, Migration> = {
  '0001-initial': m0001,
  '0002-mirror': m0002,
  '0003-review-indexes': m0003,
  '0004-drop-global-signature-index': m0004,
  '0005-balance-watch': m0005,
  '0006-whole-wallet': m0006,
  '0007-credit-attribution': m0007,
  '0008-lookup-cache': m0008,
  '0009-webhooks': m0009,
  '0010-stream-top-read': m0010,
  '0011-team-accounts': m0011,
  '0012-webhook-deliveries': m0012,
  '0013-sync-leases': m0013,
  '0014-search-indexes': m0014,
  '0015-one-time-passwords': m0015,
  '0016-alerts': m0016,
  '0017-feed-wallet-order': m0017,
  '0018-feed-filter-order': m0018,
  '0019-transaction-directions': m0019,
  '0020-feed-wallet-filter-order': m0020,
  '0021-filter-columns-in-indexes': m0021,
  '0022-service-variety': m0022,
  '0023-history-loads': m0023,
  '0024-alert-read-marks': m0024,
  '0025-team-changes': m0025,
}
