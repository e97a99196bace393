import { describeWatchDayOnRealVariety } from './watch-day-story'

describeWatchDayOnRealVariety(6)
