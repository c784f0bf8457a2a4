// An AG-UI agent server built with the AG-UI SDK's own packages (@ag-ui/core
// types and schemas, @ag-ui/encoder's EventEncoder), for Stepwise's tests:
// scripted and deterministic. Every request is validated with the core's
// RunAgentInputSchema (400 when it does not parse) and every event it sends
// with its EventSchema.
//
//   node agui-server.mjs --port 8124 [--host 0.0.0.0]
//
// It listens on 127.0.0.1 unless --host says otherwise (the compose example
// runs it in a container of its own).
//
// Routes:
//   POST /agent      runs the agent: RunAgentInput in, events out (SSE)
//   GET  /requests   every RunAgentInput received, oldest first
//   POST /client-run runs /agent once through @ag-ui/client's HttpAgent with
//                    the given {threadId, runId, messages, state} and returns
//                    the messages and state the official client then holds
//                    (what Stepwise's own conversation is compared with)
//   POST /release    lets a waiting "slow" run go on
//   POST /reset      forgets the requests (and which "flaky" runs failed)
//
// What a run does depends on its input: a resume answers the open
// interrupts; else the last user message chooses: "email" calls send_email
// and interrupts for its approval (RUN_FINISHED outcome); "account" asks a
// question through a form interrupt; "legacy" asks approval as LangGraph
// does (CUSTOM on_interrupt); "slow" streams text and waits for /release;
// "fail" ends with RUN_ERROR; "flaky" fails with RUN_ERROR before any
// message the first time, and answers as below after; "expense" asks approval as the .NET AG-UI
// hosting does (a call to the client tool request_approval, its request
// wrapped in {request: {approval_id, function_name, ...}}); "ask" calls
// the client tool ask_user when the client offered it (RunAgentInput.tools);
// "research" delegates to two sub-agents (SUBAGENT_STARTED, events
// attributed by subagentRunId), the first waiting for /release;
// "deadline" asks through a form interrupt that expires (expiresAt: in an
// hour, or in 2 seconds for "quick deadline"); anything else reasons, looks
// up the weather and answers. A run whose last message is a tool message
// answers a client tool's call from it.

import http from 'node:http';
import { EventType } from '@ag-ui/core';
import { EventSchema, RunAgentInputSchema } from '@ag-ui/core/schemas';
import { EventEncoder } from '@ag-ui/encoder';
import { HttpAgent } from '@ag-ui/client';

const port = Number(process.argv[process.argv.indexOf('--port') + 1] || 0);
const host = process.argv.includes('--host') ? process.argv[process.argv.indexOf('--host') + 1] : '127.0.0.1';

let requests = [];
const failedOnce = new Set(); // the user messages a "flaky" run failed on
let gate = deferred();

function deferred() {
  let resolve;
  const promise = new Promise((r) => (resolve = r));
  return { promise, resolve };
}

function lastUserText(messages) {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m.role === 'user') {
      return typeof m.content === 'string' ? m.content : m.content.filter((p) => p.type === 'text').map((p) => p.text).join(' ');
    }
  }
  return '';
}

// The events of one run, from its input.
async function* run(input) {
  const { threadId, runId } = input;
  yield { type: EventType.RUN_STARTED, threadId, runId };
  const text = lastUserText(input.messages).toLowerCase();
  const n = input.messages.length;

  function* say(id, answer) {
    yield { type: EventType.TEXT_MESSAGE_START, messageId: id, role: 'assistant' };
    for (const delta of answer.split(/(?<= )/)) yield { type: EventType.TEXT_MESSAGE_CONTENT, messageId: id, delta };
    yield { type: EventType.TEXT_MESSAGE_END, messageId: id };
  }

  const last = input.messages[n - 1];
  if (last && last.role === 'tool') {
    // The client answered its tool's call (JSON text in the content).
    const result = JSON.parse(last.content);
    if (last.toolCallId.startsWith('call-approval')) {
      if (result.approved === true && result.approval_id === 'ficc-1') {
        yield { type: EventType.TOOL_CALL_START, toolCallId: 'call-expense-' + n, toolCallName: 'ApproveExpenseReport', parentMessageId: 'calls-' + n };
        yield { type: EventType.TOOL_CALL_ARGS, toolCallId: 'call-expense-' + n, delta: '{"expenseReportId":"EXP-2024-001"}' };
        yield { type: EventType.TOOL_CALL_END, toolCallId: 'call-expense-' + n };
        yield { type: EventType.TOOL_CALL_RESULT, messageId: 'result-' + n, toolCallId: 'call-expense-' + n, content: '"Expense report EXP-2024-001 has been approved."', role: 'tool' };
        yield* say('msg-' + n, 'Expense report EXP-2024-001 is approved.');
      } else {
        yield* say('msg-' + n, 'I did not approve the expense report' + (result.reason ? ': ' + result.reason : '') + '.');
      }
    } else if (result.cancelled) {
      yield* say('msg-' + n, 'You did not answer.');
    } else {
      yield* say('msg-' + n, 'You chose ' + result.answer + '.');
    }
    yield { type: EventType.RUN_FINISHED, threadId, runId };
    return;
  }

  const legacy = input.forwardedProps && input.forwardedProps.command && input.forwardedProps.command.resume;
  // Every interrupt cancelled because the user wrote instead: the new
  // message is what this run answers.
  const movedOn = input.resume && input.resume.length && input.resume.every((e) => e.status === 'cancelled') && last && last.role === 'user';
  if (input.resume && input.resume.length && !movedOn) {
    for (const entry of input.resume) {
      const deadline = /^deadline-\d+-(\d+)$/.exec(entry.interruptId);
      if (deadline && entry.status === 'resolved' && Date.now() > Number(deadline[1])) {
        // As @ag-ui/client refuses it: an expired interrupt can only be cancelled.
        yield { type: EventType.RUN_ERROR, message: 'Interrupt ' + entry.interruptId + ' expired and can no longer be answered.' };
        return;
      }
      if (entry.interruptId.startsWith('approve-email')) {
        const approved = entry.status === 'resolved' && entry.payload && entry.payload.approved === true;
        const to = (entry.payload && entry.payload.editedArgs && entry.payload.editedArgs.to) || 'team@example.com';
        if (approved) {
          yield { type: EventType.TOOL_CALL_RESULT, messageId: 'result-' + runId, toolCallId: 'call-email-1', content: 'Sent to ' + to, role: 'tool' };
          yield* say('answer-' + runId, 'The email was sent to ' + to + '.');
        } else {
          yield* say('answer-' + runId, 'I did not send the email.');
        }
      } else if (entry.status === 'resolved') {
        yield* say('answer-' + runId + '-' + entry.interruptId, 'Noted: ' + JSON.stringify(entry.payload) + '.');
      } else {
        yield* say('answer-' + runId + '-' + entry.interruptId, 'Cancelled.');
      }
    }
    yield { type: EventType.RUN_FINISHED, threadId, runId };
    return;
  }
  if (legacy !== undefined) {
    const decision = legacy.decisions && legacy.decisions[0];
    if (decision && decision.type === 'approve') {
      yield { type: EventType.TOOL_CALL_RESULT, messageId: 'result-' + runId, toolCallId: 'call-legacy-1', content: 'Archived', role: 'tool' };
      yield* say('answer-' + runId, 'The report was archived.');
    } else {
      yield* say('answer-' + runId, 'I left the report alone.');
    }
    yield { type: EventType.RUN_FINISHED, threadId, runId };
    return;
  }
  if (text.includes('email')) {
    yield { type: EventType.TOOL_CALL_START, toolCallId: 'call-email-1', toolCallName: 'send_email', parentMessageId: 'msg-' + n };
    yield { type: EventType.TOOL_CALL_ARGS, toolCallId: 'call-email-1', delta: '{"to":"team@example.com",' };
    yield { type: EventType.TOOL_CALL_ARGS, toolCallId: 'call-email-1', delta: '"subject":"Report"}' };
    yield { type: EventType.TOOL_CALL_END, toolCallId: 'call-email-1' };
    yield {
      type: EventType.RUN_FINISHED, threadId, runId,
      outcome: {
        type: 'interrupt',
        interrupts: [{
          id: 'approve-email-' + n,
          reason: 'tool_call',
          toolCallId: 'call-email-1',
          message: 'Send the report to team@example.com?',
          responseSchema: { type: 'object', properties: { approved: { type: 'boolean' }, editedArgs: { type: 'object' } }, required: ['approved'] },
        }],
      },
    };
    return;
  }
  if (text.includes('account')) {
    yield* say('msg-' + n, 'I need one detail first.');
    yield {
      type: EventType.RUN_FINISHED, threadId, runId,
      outcome: {
        type: 'interrupt',
        interrupts: [{
          id: 'ask-account-' + n,
          reason: 'input_required',
          message: 'Which account should I use?',
          responseSchema: {
            type: 'object',
            properties: { account: { type: 'string', enum: ['work', 'home'], title: 'Account' }, remember: { type: 'boolean', title: 'Remember my choice' } },
            required: ['account'],
          },
        }],
      },
    };
    return;
  }
  if (text.includes('expense')) {
    const request = {
      approval_id: 'ficc-1',
      function_name: 'ApproveExpenseReport',
      function_arguments: { expenseReportId: 'EXP-2024-001' },
      message: "Approve execution of 'ApproveExpenseReport'?",
    };
    yield { type: EventType.TOOL_CALL_START, toolCallId: 'call-approval-' + n, toolCallName: 'request_approval', parentMessageId: '' };
    yield { type: EventType.TOOL_CALL_ARGS, toolCallId: 'call-approval-' + n, delta: JSON.stringify({ request }) };
    yield { type: EventType.TOOL_CALL_END, toolCallId: 'call-approval-' + n };
    yield { type: EventType.RUN_FINISHED, threadId, runId };
    return;
  }
  if (text.includes('ask')) {
    if (!(input.tools || []).some((t) => t.name === 'ask_user')) {
      yield* say('msg-' + n, 'I cannot ask you: the client offered no ask_user tool.');
    } else {
      yield* say('msg-' + n, 'One question first.');
      yield { type: EventType.TOOL_CALL_START, toolCallId: 'call-ask-' + n, toolCallName: 'ask_user', parentMessageId: 'msg-' + n };
      yield { type: EventType.TOOL_CALL_ARGS, toolCallId: 'call-ask-' + n, delta: JSON.stringify({ question: 'Which city?', options: ['Hanoi', 'Hue'] }) };
      yield { type: EventType.TOOL_CALL_END, toolCallId: 'call-ask-' + n };
    }
    yield { type: EventType.RUN_FINISHED, threadId, runId };
    return;
  }
  if (text.includes('research')) {
    const sub = (e) => ({ ...e, subagentRunId: 'sub-' + n });
    yield* say('msg-' + n, 'I will ask the researcher.');
    yield { type: EventType.TOOL_CALL_START, toolCallId: 'call-research-' + n, toolCallName: 'research', parentMessageId: 'calls-' + n };
    yield { type: EventType.TOOL_CALL_ARGS, toolCallId: 'call-research-' + n, delta: '{"topic":"sub-agents"}' };
    yield { type: EventType.TOOL_CALL_END, toolCallId: 'call-research-' + n };
    yield { type: EventType.SUBAGENT_STARTED, subagentRunId: 'sub-' + n, name: 'researcher', description: 'Finds and reads sources', parentToolCallId: 'call-research-' + n };
    yield sub({ type: EventType.REASONING_MESSAGE_START, messageId: 'think-sub-' + n, role: 'reasoning' });
    yield sub({ type: EventType.REASONING_MESSAGE_CONTENT, messageId: 'think-sub-' + n, delta: 'Search the documentation first.' });
    yield sub({ type: EventType.REASONING_MESSAGE_END, messageId: 'think-sub-' + n });
    yield sub({ type: EventType.TOOL_CALL_START, toolCallId: 'call-search-' + n, toolCallName: 'web_search', parentMessageId: 'sub-calls-' + n });
    yield sub({ type: EventType.TOOL_CALL_ARGS, toolCallId: 'call-search-' + n, delta: '{"query":"ag-ui subagents"}' });
    yield sub({ type: EventType.TOOL_CALL_END, toolCallId: 'call-search-' + n });
    yield sub({ type: EventType.ACTIVITY_SNAPSHOT, messageId: 'reading-' + n, activityType: 'reading', content: { title: 'Reading sources', status: 'started', done: 0, total: 3 } });
    yield sub({ type: EventType.ACTIVITY_DELTA, messageId: 'reading-' + n, activityType: 'reading', patch: [{ op: 'replace', path: '/done', value: 2 }, { op: 'replace', path: '/status', value: 'reading' }] });
    await gate.promise;
    yield sub({ type: EventType.ACTIVITY_DELTA, messageId: 'reading-' + n, activityType: 'reading', patch: [{ op: 'replace', path: '/done', value: 3 }, { op: 'replace', path: '/status', value: 'done' }] });
    gate = deferred();
    yield sub({ type: EventType.TOOL_CALL_RESULT, messageId: 'sub-result-' + n, toolCallId: 'call-search-' + n, content: '3 pages', role: 'tool' });
    for (const e of say('sub-msg-' + n, 'Sub-agents attribute their events.')) yield sub(e);
    yield { type: EventType.SUBAGENT_FINISHED, subagentRunId: 'sub-' + n };
    yield { type: EventType.TOOL_CALL_RESULT, messageId: 'result-' + n, toolCallId: 'call-research-' + n, content: 'Sub-agents attribute their events.', role: 'tool' };
    yield* say('answer-' + n, 'The researcher found that sub-agents attribute their events.');
    yield { type: EventType.RUN_FINISHED, threadId, runId };
    return;
  }
  if (text.includes('deadline')) {
    const quick = text.includes('quick');
    const expires = Date.now() + (quick ? 2000 : 3600 * 1000);
    yield {
      type: EventType.RUN_FINISHED, threadId, runId,
      outcome: {
        type: 'interrupt',
        interrupts: [{
          id: 'deadline-' + n + '-' + expires,
          reason: 'input_required',
          message: 'Confirm the booking before the hold ends.',
          responseSchema: { type: 'object', properties: { confirm: { type: 'boolean', title: 'Confirm the booking' } }, required: ['confirm'] },
          expiresAt: new Date(expires).toISOString(),
        }],
      },
    };
    return;
  }
  if (text.includes('legacy')) {
    yield { type: EventType.TOOL_CALL_START, toolCallId: 'call-legacy-1', toolCallName: 'archive_report', parentMessageId: 'msg-' + n };
    yield { type: EventType.TOOL_CALL_ARGS, toolCallId: 'call-legacy-1', delta: '{"report":"Q3"}' };
    yield { type: EventType.TOOL_CALL_END, toolCallId: 'call-legacy-1' };
    // As the LangGraph integration sends it: the value JSON-encoded.
    yield {
      type: EventType.CUSTOM,
      name: 'on_interrupt',
      value: JSON.stringify({
        action_requests: [{ name: 'archive_report', args: { report: 'Q3' }, description: 'Archive the Q3 report?' }],
        review_configs: [{ action_name: 'archive_report', allowed_decisions: ['approve', 'reject'] }],
      }),
    };
    yield { type: EventType.RUN_FINISHED, threadId, runId };
    return;
  }
  if (text.includes('slow')) {
    yield { type: EventType.TEXT_MESSAGE_START, messageId: 'msg-' + n, role: 'assistant' };
    yield { type: EventType.TEXT_MESSAGE_CONTENT, messageId: 'msg-' + n, delta: 'Working on it' };
    await gate.promise;
    gate = deferred();
    yield { type: EventType.TEXT_MESSAGE_CONTENT, messageId: 'msg-' + n, delta: ', done.' };
    yield { type: EventType.TEXT_MESSAGE_END, messageId: 'msg-' + n };
    yield { type: EventType.RUN_FINISHED, threadId, runId };
    return;
  }
  if (text.includes('flaky') && !failedOnce.has(last.id)) {
    // Fails before any message, once per user message: the run after
    // answers.
    failedOnce.add(last.id);
    yield { type: EventType.RUN_ERROR, message: 'The model is overloaded.', code: 'overloaded' };
    return;
  }
  if (text.includes('fail')) {
    yield* say('msg-' + n, 'Let me try.');
    yield { type: EventType.RUN_ERROR, message: 'The model is overloaded.', code: 'overloaded' };
    return;
  }
  yield { type: EventType.REASONING_START, messageId: 'think-' + n };
  yield { type: EventType.REASONING_MESSAGE_START, messageId: 'think-' + n, role: 'reasoning' };
  yield { type: EventType.REASONING_MESSAGE_CONTENT, messageId: 'think-' + n, delta: 'The user wants the weather; ' };
  yield { type: EventType.REASONING_MESSAGE_CONTENT, messageId: 'think-' + n, delta: 'I will look it up.' };
  yield { type: EventType.REASONING_MESSAGE_END, messageId: 'think-' + n };
  yield { type: EventType.REASONING_END, messageId: 'think-' + n };
  yield { type: EventType.TOOL_CALL_START, toolCallId: 'call-weather-' + n, toolCallName: 'get_weather', parentMessageId: 'calls-' + n };
  yield { type: EventType.TOOL_CALL_ARGS, toolCallId: 'call-weather-' + n, delta: '{"city":' };
  yield { type: EventType.TOOL_CALL_ARGS, toolCallId: 'call-weather-' + n, delta: '"Hanoi"}' };
  yield { type: EventType.TOOL_CALL_END, toolCallId: 'call-weather-' + n };
  yield { type: EventType.TOOL_CALL_RESULT, messageId: 'result-' + n, toolCallId: 'call-weather-' + n, content: '{"temperature":31,"condition":"sunny"}', role: 'tool' };
  yield { type: EventType.STATE_SNAPSHOT, snapshot: { city: 'Hanoi', lookups: n } };
  yield* say('msg-' + n, 'It is 31 degrees and sunny in Hanoi.');
  yield { type: EventType.RUN_FINISHED, threadId, runId };
}

async function readJSON(req) {
  let raw = '';
  for await (const c of req) raw += c;
  return JSON.parse(raw);
}

function json(res, status, value) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(value));
}

const server = http.createServer(async (req, res) => {
  const url = new URL(req.url, 'http://localhost');
  try {
    if (req.method === 'POST' && url.pathname === '/agent') {
      const body = await readJSON(req);
      requests.push(body);
      const parsed = RunAgentInputSchema.safeParse(body);
      if (!parsed.success) return json(res, 400, { error: parsed.error.message });
      const encoder = new EventEncoder({ accept: 'text/event-stream' });
      res.writeHead(200, { 'content-type': encoder.getContentType(), 'cache-control': 'no-cache' });
      let closed = false;
      res.on('close', () => (closed = true));
      for await (const event of run(parsed.data)) {
        if (closed) break;
        res.write(encoder.encode(EventSchema.parse(event)));
      }
      return res.end();
    }
    if (req.method === 'GET' && url.pathname === '/requests') return json(res, 200, requests);
    if (req.method === 'POST' && url.pathname === '/client-run') {
      const body = await readJSON(req);
      const agent = new HttpAgent({
        url: 'http://127.0.0.1:' + server.address().port + '/agent',
        threadId: body.threadId,
        initialMessages: body.messages,
        initialState: body.state,
      });
      if (body.release) setTimeout(() => gate.resolve(), 0); // a run that waits at the gate goes on
      await agent.runAgent({ runId: body.runId });
      return json(res, 200, { messages: agent.messages, state: agent.state });
    }
    if (req.method === 'POST' && url.pathname === '/release') {
      gate.resolve();
      return json(res, 200, { ok: true });
    }
    if (req.method === 'POST' && url.pathname === '/reset') {
      requests = [];
      failedOnce.clear();
      return json(res, 200, { ok: true });
    }
    json(res, 404, { error: 'not found' });
  } catch (err) {
    if (!res.headersSent) json(res, 500, { error: String(err) });
    else res.end();
  }
});

server.listen(port, host, () => {
  // The test reads the port from this line.
  console.log('listening on ' + server.address().port);
});
