#[allow(non_upper_case_globals, clippy::all)]
const _: () = {
    use ::error_catalog::__private_0_1 as __ec;
    #[allow(unused_imports)]
    use ::core::option::Option::{None as __N, Some as __S};
    macro_rules! __track {
        ($($file:literal)*) => {
            #[allow(dead_code)] fn __track() { $(let _ : & [u8] =
            ::core::include_bytes!(::core::concat!(::core::env!("CARGO_MANIFEST_DIR"),
            $file));)* }
        };
    }
    __track!(
        "/../data/nats-io/nats-server/443048c6cb7c33f3.json"
        "/../data/nats-io/nats-server/503f49fe39cf5793.json"
        "/../data/nats-io/nats-server/59aa3418e32dd765.json"
    );
    static __PACKED: &str = r#"14:PersistSession16:503f49fe39cf579319:nats-io/nats-server35:unable-to-persist-session-q-seq-v-v-41:unable to persist session %q (seq=%v): %v49:unable to persist session %q \(seq=(.+?)\): (.+?)k9:exception--k5:error14:server/mqtt.go3435;947:	sess.mu.Unlock()

	var hdr int
	if seq != 0 {
		bb := bytes.Buffer{}
		bb.WriteString(hdrLine)
		bb.WriteString(JSExpectedLastSubjSeq)
		bb.WriteString(":")
		bb.WriteString(strconv.FormatInt(int64(seq), 10))
		bb.WriteString(CR_LF)
		bb.WriteString(CR_LF)
		hdr = bb.Len()
		bb.Write(b)
		b = bb.Bytes()
	}

	resp, err := sess.jsa.storeSessionMsg(domainTk, cidHash, hdr, b)
	if err != nil {
		return fmt.Errorf("unable to persist session %q (seq=%v): %v", ps.ID, seq, err)
	}
	// Guard before dereferencing below.
	if resp == nil || resp.PubAck == nil {
		return fmt.Errorf("unable to persist session %q (seq=%v): invalid pub ack response", ps.ID, seq)
	}
	sess.mu.Lock()
	sess.seq = resp.Sequence
	sess.mu.Unlock()
	return nil
}

// Clear the session.
//
// Runs from the client's readLoop.
// Lock not held on entry, but session is in the locked map.
func (sess *mqttSession) clear(noWait bool) error {
	var durs []string
	var pubRelDur string3417;3453;111:https://github.com/nats-io/nats-server/blob/3a66a489d262bf89b71a71c955c94920394532f3/server/mqtt.go#L3417-L3453259:Returned when storing the persisted session record fails: sess.jsa.storeSessionMsg publishes the session state to the '$MQTT.sess' stream and the returned error is wrapped with the session ID, sequence, and cause. The session state could not be durably saved.210:storeSessionMsg returns a JetStream error — stream not available, publish timeout, no responders, maximum payload exceeded (many subscriptions/queued messages making the record too large), or storage failure.152:JetStream degraded or restarted; cluster without quorum for the $MQTT.sess stream; MQTT session with an enormous state exceeding max_payload; disk full.4;63:Check JetStream/stream health for $MQTT.sess and cluster quorum88:Reduce session state size (fewer subscriptions / queued messages) if hitting max_payload39:Free disk space or fix filestore issues74:Retry the CONNECT/publish after the underlying JetStream error is resolved139:// before
// store fails: payload too large
// after
// raise max_payload or reduce per-session state (clean_session=true, fewer subs)
nullk5:retry326:// Pre-check stream state and payload budget before large sessions
const info = await fetch('http://monitor:8222/jsz?streams=true').then(r=>r.json())
const sess = info.account_details?.flatMap(a=>a.streams||[]).find(s=>s.name==='$MQTT.sess')
if (!sess || sess.state.messages < 0) throw new Error('$MQTT.sess stream unhealthy')-246:try {
  await mqttConnect()
} catch (e) {
  if (String(e).includes('unable to persist session')) {
    await waitForJetStreamHealthy()
    await mqttConnect({ cleanSession: true }) // fallback to avoid heavy persisted state
  } else { throw e }
}4;75:Keep session state small (subscriptions, queued messages) under max_payload50:Monitor $MQTT.sess stream health and disk capacity49:Ensure cluster quorum before reconnecting clients63:Use clean_session for clients that do not need durable sessions3;4:mqtt9:jetstream11:persistence24:jetstream-publish-failed40:3a66a489d262bf89b71a71c955c94920394532f324:2026-09-02T04:41:54.247Z-2;24:2026-09-08T15:18:49.778Zg6;l26:unable to persist session v0;113;0;nnl6: (seq=v1;118;0;nnl3:): v2;118;0;nn3;5:ps_idq0;3:seqt1;3:errt2;233:unable to persist session ("(?:[^"\\\n]|\\(?:[abfnrtv\\'"]|x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|[0-7]{3}))*"|'(?:[^'\\\n]|\\(?:[abfnrtv\\'"]|x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|[0-7]{3}))') \(seq=(.*?)\): (.*?)35;18:InFlightWindowFull16:59aa3418e32dd76519:nats-io/nats-server47:qos1-in-flight-window-is-full-d-messages-and-je-200:QoS1 in-flight window is full (%d messages) and JetStream has not acknowledged the oldest message within %v; failing the connection, the client will re-send unacknowledged PUBLISH packets on reconnect208:QoS1 in-flight window is full \((.+?) messages\) and JetStream has not acknowledged the oldest message within (.+?); failing the connection, the client will re-send unacknowledged PUBLISH packets on reconnectk10:validation--k5:error14:server/mqtt.go4727;1065:		return errMQTTAckPipelineStopped
	default:
	}

	enqueued := false
	select {
	case pipe.q <- ack:
		enqueued = true
	default:
		// Window full: wait for an available slot in the pipeline.
		t := time.NewTimer(jsa.timeout)
		defer t.Stop()
		select {
		case pipe.q <- ack:
			enqueued = true
		case <-pipe.quitCh:
		case <-t.C:
			jsa.replies.Delete(ack.reply)
			return fmt.Errorf("QoS1 in-flight window is full (%d messages) and JetStream has not acknowledged "+
				"the oldest message within %v; failing the connection, "+
				"the client will re-send unacknowledged PUBLISH packets on reconnect",
				mqttMaxAcksInFlight, jsa.timeout)
		}
	}
	if !enqueued {
		// Stopped while waiting for a slot, never admitted.
		jsa.replies.Delete(ack.reply)
		return errMQTTAckPipelineStopped
	}

	// A stop may have raced the enqueue: the close-time drain could run
	// before the entry landed and miss it. Drain again; both drains only
	// dequeue and delete, so overlapping is harmless.
	select {
	case <-pipe.quitCh:
		pipe.shutdown()
		return errMQTTAckPipelineStopped4709;4745;111:https://github.com/nats-io/nats-server/blob/3a66a489d262bf89b71a71c955c94920394532f3/server/mqtt.go#L4709-L4745331:The MQTT JetStream bridge bounds the number of un-acked QoS1 messages in flight (mqttMaxAcksInFlight). When the window is full, new acks must be enqueued via a bounded select; if the pipe stays full past jsa.timeout, the server fails the connection with this error so the client resends unacknowledged PUBLISH packets on reconnect.203:An MQTT client publishes QoS1 messages faster than JetStream acks them, filling mqttMaxAcksInFlight slots; the pending ack cannot be enqueued within jsa.timeout because the pipe is full and not draining.186:JetStream backing store is slow or quorum-degraded, stream limits/maximums block commits, a single aggressive MQTT publisher flooding QoS1 messages, or network partition slowing JS acks.4;133:Throttle the MQTT publisher's QoS1 rate (client-side in-flight window, e.g. max_inflight in the client) so it doesn't outpace JS acks108:Fix JetStream performance/health: check stream info, raft/quorum state, disk latency, and increase resources100:Increase jsa.timeout (server mqtt js ack timeout config) if latency is legitimately high but bounded80:Verify stream limits (max msgs, max bytes, retention) are not causing ack stalls214:// before (client)
opts.MaxReconnect = 5
// after (client-side QoS1 throttling)
opts := mqtt.NewClientOptions().SetWriteTimeout(10*time.Second)
mqttClient.SetMaxInflight(64) // stay below server mqttMaxAcksInFlightk5:retry--155:if err := publish(qos1payload); err != nil && strings.Contains(err.Error(), "in-flight window is full") {
  time.Sleep(backoff)
  resumeFromLastUnacked()
}4;76:Throttle client QoS1 publish rate below JetStream's sustained ack throughput67:Keep client in-flight window below the server's mqttMaxAcksInFlight61:Alert on JetStream ack latency and stream limit near-capacity80:Fix storage/quorum problems promptly — backpressure here indicates JS slowness5;4:mqtt9:jetstream12:backpressure15:inflight-window4:qos121:jetstream-ack-timeout40:3a66a489d262bf89b71a71c955c94920394532f324:2026-09-02T04:41:54.247Z-2;24:2026-09-08T15:18:49.778Zg5;l31:QoS1 in-flight window is full (v0;100;0;nnl72: messages) and JetStream has not acknowledged the oldest message within v1;118;0;nnl93:; failing the connection, the client will re-send unacknowledged PUBLISH packets on reconnect2;23:mqtt_max_acks_in_flighti0;11:jsa_timeoutt1;219:QoS1 in\-flight window is full \(([-+ ]?[0-9]+) messages\) and JetStream has not acknowledged the oldest message within (.*?); failing the connection, the client will re\-send unacknowledged PUBLISH packets on reconnect196;"#;
    fn __meta() -> &'static [__ec::Entry] {
        static META: __ec::OnceLock<__ec::Vec<__ec::Entry>> = __ec::OnceLock::new();
        META.get_or_init(|| __ec::packed::decode(__PACKED, 2usize))
    }
    fn __matcher() -> &'static __ec::Matcher<&'static __ec::Entry> {
        static MATCHER: __ec::OnceLock<__ec::Matcher<&'static __ec::Entry>> = __ec::OnceLock::new();
        MATCHER.get_or_init(|| __ec::Matcher::from_items(__meta().iter().collect()))
    }
    #[allow(unused_variables)]
    fn __from_match(
        index: usize,
        values: &[__ec::Value<'_>],
    ) -> ::core::option::Option<MqttFailure> {
        match index {
            0 => {
                __S(MqttFailure::PersistSession {
                    ps_id: __ec::imported::field_from_value::<String>(&values[0usize])?,
                    seq: __ec::imported::field_from_value::<u64>(&values[1usize])?,
                    err: __ec::imported::field_from_value::<String>(&values[2usize])?,
                })
            }
            1 => __S(MqttFailure::InFlightWindowFull),
            _ => __N,
        }
    }
    #[allow(unreachable_code)]
    fn __metadata(error: &MqttFailure) -> ::core::option::Option<&'static __ec::Entry> {
        let index: ::core::option::Option<usize> = match error {
            MqttFailure::PersistSession { .. } => __S(0usize),
            MqttFailure::InFlightWindowFull { .. } => __S(1usize),
            MqttFailure::Unknown { .. } => __N,
        };
        index.map(|index| &__meta()[index])
    }
    /// The declared fields' values, indexed like the record's fields.
    #[allow(unused_variables)]
    fn __values(
        error: &MqttFailure,
    ) -> ::std::vec::Vec<::core::option::Option<__ec::Value<'static>>> {
        match error {
            MqttFailure::PersistSession { ps_id: __f0, seq: __f1, err: __f2, .. } => {
                ::std::vec![
                    __S(__ec::imported::value_from_field(__f0, __ec::ValueKind::Quoted)),
                    __S(__ec::imported::value_from_field(__f1, __ec::ValueKind::Text)),
                    __S(__ec::imported::value_from_field(__f2, __ec::ValueKind::Text))
                ]
            }
            MqttFailure::InFlightWindowFull { .. } => ::std::vec![__N, __N],
            MqttFailure::Unknown { .. } => ::std::vec::Vec::new(),
        }
    }
    fn __other(text: &str) -> String {
        ::core::convert::From::from(::std::string::String::from(text))
    }
    impl MqttFailure {
        /// The variant's record and compiled message; `None` for `Unknown`, which holds messages no record matches.
        pub fn metadata(&self) -> ::core::option::Option<&'static __ec::Entry> {
            __metadata(self)
        }
        /// The imported records, in variant order.
        pub fn entries() -> &'static [__ec::Entry] {
            __meta()
        }
        /// The error whose message is exactly `message`.
        pub fn parse(message: &str) -> ::core::option::Option<Self> {
            __matcher()
                .parse_map(message, |m| __from_match(m.index, &m.values))
                .or_else(|| __S(MqttFailure::Unknown(__other(message))))
        }
        /// The error whose message occurs in `line` (a log line, say).
        pub fn find(line: &str) -> ::core::option::Option<Self> {
            Self::find_span(line).map(|(error, _)| error)
        }
        /// The error whose message occurs in `line`, and its byte range.
        pub fn find_span(
            line: &str,
        ) -> ::core::option::Option<(Self, ::core::ops::Range<usize>)> {
            __matcher()
                .find_map(line, |m| __S((__from_match(m.index, &m.values)?, m.span)))
                .or_else(|| {
                    let line = __ec::imported::line_text(line);
                    __S((MqttFailure::Unknown(__other(line)), 0..line.len()))
                })
        }
        /// Every imported error whose message occurs in `line`, most specific first.
        pub fn find_all(
            line: &str,
        ) -> ::std::vec::Vec<(Self, ::core::ops::Range<usize>)> {
            __matcher()
                .find_all(line)
                .into_iter()
                .filter_map(|m| __S((__from_match(m.index, &m.values)?, m.span)))
                .collect()
        }
    }
    #[automatically_derived]
    impl ::core::fmt::Display for MqttFailure {
        /// The record's message with the variant's fields; omitted fields
        /// are written as their placeholders (`%d`).
        #[allow(unreachable_patterns)]
        fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
            match __metadata(self) {
                __S(metadata) => {
                    __ec::imported::render_declared(
                        f,
                        &metadata.template,
                        &__values(self),
                    )
                }
                __N => {
                    match self {
                        MqttFailure::Unknown(__text) => {
                            ::core::fmt::Display::fmt(__text, f)
                        }
                        _ => ::core::result::Result::Ok(()),
                    }
                }
            }
        }
    }
    #[automatically_derived]
    impl ::std::error::Error for MqttFailure {}
    #[automatically_derived]
    impl ::core::str::FromStr for MqttFailure {
        type Err = __ec::NoMatch;
        /// Parses a whole message.
        fn from_str(s: &str) -> ::core::result::Result<Self, Self::Err> {
            Self::parse(s)
                .ok_or_else(|| __ec::NoMatch {
                    catalog: "MqttFailure",
                    input: s.into(),
                })
        }
    }
};
