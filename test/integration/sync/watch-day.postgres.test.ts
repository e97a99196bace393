import { describeWatchDay } from './watch-day-story'

// The whole day runs on SQLite (watch-day.test.ts, as the bench does); on PostgreSQL a
// quarter of it proves the same: spending, detection, latency and the mirror equal to the truth.
describeWatchDay('postgres', 6)
