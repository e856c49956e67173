/** The Slack stand-in (src/slack-standin/) under the name the tests use: a local Slack Web API that records every call. */
export {
  startSlackStandin as startFakeSlackApi,
  type SlackStandin as FakeSlackApi,
  type RecordedCall,
} from '../../src/slack-standin/slack-standin.js';
