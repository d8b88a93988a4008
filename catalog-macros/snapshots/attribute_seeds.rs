/// Errors of nats-server.
#[repr(u32)]
pub enum NatsServerError {
    /** `create QoS2 incoming messages stream for account %q: %v`

 For MQTT QoS2, each in-flight message gets its own subject in the QoS2 incoming-messages stream, configured with DiscardNew, MaxMsgsPer=1 and DiscardNewPer. If creating this stream fails for reasons other than it already existing (JSStreamNameExistErr), the error is wrapped with the account name and returned, aborting the MQTT session setup.

 **Solutions**

 - Check the wrapped inner error for the exact JS cause.
 - Ensure the NATS server/JS version supports DiscardNewPer (upgrade if running an older JS tier).
 - Raise the account's stream count/storage limits.
 - Confirm JetStream health and permissions for the account.

 id `443048c6cb7c33f3` · severity error · handling retry · [source](https://github.com/nats-io/nats-server/blob/3a66a489d262bf89b71a71c955c94920394532f3/server/mqtt.go#L1448-L1484)*/
    #[doc(alias = "create-qos2-incoming-messages-stream-for-account")]
    CreateQos2IncomingMessagesStreamForAccount {
        /// Placeholder `%q`: a quoted string, held unquoted (its bytes, UTF-8 or not).
        acc_name: ::error_catalog::ByteString,
        /// Placeholder `%v`: text.
        err: ::std::string::String,
    },
    /** `unable to persist session %q (seq=%v): %v`

 Returned when storing the persisted session record fails: sess.jsa.storeSessionMsg publishes the session state to the '$MQTT.sess' stream and the returned error is wrapped with the session ID, sequence, and cause. The session state could not be durably saved.

 **Solutions**

 - Check JetStream/stream health for $MQTT.sess and cluster quorum
 - Reduce session state size (fewer subscriptions / queued messages) if hitting max_payload
 - Free disk space or fix filestore issues
 - Retry the CONNECT/publish after the underlying JetStream error is resolved

 id `503f49fe39cf5793` · severity error · handling retry · [source](https://github.com/nats-io/nats-server/blob/3a66a489d262bf89b71a71c955c94920394532f3/server/mqtt.go#L3417-L3453)*/
    #[doc(alias = "unable-to-persist-session-q-seq-v-v")]
    UnableToPersistSession {
        /// Placeholder `%q`: a quoted string, held unquoted (its bytes, UTF-8 or not).
        ps_id: ::error_catalog::ByteString,
        /// Placeholder `%v`: text.
        seq: ::std::string::String,
        /// Placeholder `%v`: text.
        err: ::std::string::String,
    },
    /** `QoS1 in-flight window is full (%d messages) and JetStream has not acknowledged the oldest message within %v; failing the connection, the client will re-send unacknowledged PUBLISH packets on reconnect`

 The MQTT JetStream bridge bounds the number of un-acked QoS1 messages in flight (mqttMaxAcksInFlight). When the window is full, new acks must be enqueued via a bounded select; if the pipe stays full past jsa.timeout, the server fails the connection with this error so the client resends unacknowledged PUBLISH packets on reconnect.

 **Solutions**

 - Throttle the MQTT publisher's QoS1 rate (client-side in-flight window, e.g. max_inflight in the client) so it doesn't outpace JS acks
 - Fix JetStream performance/health: check stream info, raft/quorum state, disk latency, and increase resources
 - Increase jsa.timeout (server mqtt js ack timeout config) if latency is legitimately high but bounded
 - Verify stream limits (max msgs, max bytes, retention) are not causing ack stalls

 id `59aa3418e32dd765` · severity error · handling retry · [source](https://github.com/nats-io/nats-server/blob/3a66a489d262bf89b71a71c955c94920394532f3/server/mqtt.go#L4709-L4745)*/
    #[doc(alias = "qos1-in-flight-window-is-full-d-messages-and-je")]
    Qos1InFlightWindowIsFull {
        /// Placeholder `%d`: an integer.
        mqtt_max_acks_in_flight: ::core::primitive::i128,
        /// Placeholder `%v`: text.
        jsa_timeout: ::std::string::String,
    },
}
/// The kinds of [`NatsServerError`]: one fieldless variant per record, in the same order.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u32)]
pub enum NatsServerErrorKind {
    /// [`NatsServerError::CreateQos2IncomingMessagesStreamForAccount`]
    CreateQos2IncomingMessagesStreamForAccount,
    /// [`NatsServerError::UnableToPersistSession`]
    UnableToPersistSession,
    /// [`NatsServerError::Qos1InFlightWindowIsFull`]
    Qos1InFlightWindowIsFull,
}
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
    static __PACKED: &str = r#"42:CreateQos2IncomingMessagesStreamForAccount16:443048c6cb7c33f319:nats-io/nats-server48:create-qos2-incoming-messages-stream-for-account-55:create QoS2 incoming messages stream for account %q: %v58:create QoS2 incoming messages stream for account %q: (.+?)k9:exception--k5:error14:server/mqtt.go1466;1527:	if si, err := lookupStream(mqttQoS2IncomingMsgsStreamName, "QoS2 incoming messages"); err != nil {
		return nil, err
	} else if si == nil {
		// Create the stream for the incoming QoS2 messages that have not been
		// PUBREL-ed by the sender. Subject is
		// "$MQTT.qos2.<session>.<PI>", the .PI is to achieve exactly
		// once for each PI.
		cfg := &StreamConfig{
			Name:          mqttQoS2IncomingMsgsStreamName,
			Subjects:      []string{mqttQoS2IncomingMsgsStreamSubjectPrefix + ">"},
			Storage:       FileStorage,
			Retention:     LimitsPolicy,
			Discard:       DiscardNew,
			MaxMsgsPer:    1,
			DiscardNewPer: true,
			Replicas:      replicas,
		}
		if _, _, err := jsa.createStream(cfg); isErrorOtherThan(err, JSStreamNameExistErr) {
			return nil, fmt.Errorf("create QoS2 incoming messages stream for account %q: %v", accName, err)
		}
	}

	if si, err := lookupStream(mqttOutStreamName, "QoS2 outgoing PUBREL"); err != nil {
		return nil, err
	} else if si == nil {
		// Create the stream for the incoming QoS2 messages that have not been
		// PUBREL-ed by the sender. NATS messages are submitted as
		// "$MQTT.pubrel.<session hash>"
		cfg := &StreamConfig{
			Name:      mqttOutStreamName,
			Subjects:  []string{mqttOutSubjectPrefix + ">"},
			Storage:   FileStorage,
			Retention: InterestPolicy,
			Replicas:  replicas,
		}
		if _, _, err := jsa.createStream(cfg); isErrorOtherThan(err, JSStreamNameExistErr) {
			return nil, fmt.Errorf("create QoS2 outgoing PUBREL stream for account %q: %v", accName, err)1448;1484;111:https://github.com/nats-io/nats-server/blob/3a66a489d262bf89b71a71c955c94920394532f3/server/mqtt.go#L1448-L1484343:For MQTT QoS2, each in-flight message gets its own subject in the QoS2 incoming-messages stream, configured with DiscardNew, MaxMsgsPer=1 and DiscardNewPer. If creating this stream fails for reasons other than it already existing (JSStreamNameExistErr), the error is wrapped with the account name and returned, aborting the MQTT session setup.228:jsa.createStream(cfg) for the '<account>-mqtt-q2' stream returns an error other than JSStreamNameExistErr — e.g. account JS limits reject the per-subject discard configuration, storage limits hit, or JS API/permissions errors.138:Older/limited JS tiers that don't support DiscardNewPer; account max-streams quota reached; storage exhausted; JS temporarily unavailable.4;53:Check the wrapped inner error for the exact JS cause.95:Ensure the NATS server/JS version supports DiscardNewPer (upgrade if running an older JS tier).48:Raise the account's stream count/storage limits.57:Confirm JetStream health and permissions for the account.-k5:retry214:// Verify server/JS version supports DiscardNewPer before using QoS2 MQTT
if (serverInfo.proto < MIN_PROTO_DISCARD_NEW_PER) {
  throw new Error('upgrade NATS server: QoS2 stream config requires newer JetStream');
}-239:try {
  await mqttConnect();
} catch (e) {
  if (/create QoS2 incoming messages stream/.test(e.message)) {
    if (/discard|config/.test(e.message)) upgradeServer();
    else raiseAccountLimits();
    return mqttConnect();
  }
  throw e;
}4;63:Run a NATS server version supporting per-subject discard limits40:Keep the account under max-stream quotas52:Watch for JS API errors when enabling QoS2 workloads62:Test QoS2 flows against your production JS tier before rollout4;4:mqtt9:jetstream4:qos215:stream-creation32:jetstream-stream-creation-failed40:3a66a489d262bf89b71a71c955c94920394532f324:2026-09-02T04:41:54.247Z-2;24:2026-09-08T15:18:49.778Zg4;l49:create QoS2 incoming messages stream for account v0;113;0;nnl2:: v1;118;0;nn2;8:acc_nameq0;3:errt1;242:create QoS2 incoming messages stream for account ("(?:[^"\\\n]|\\(?:[abfnrtv\\'"]|x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|[0-7]{3}))*"|'(?:[^'\\\n]|\\(?:[abfnrtv\\'"]|x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|[0-7]{3}))'): (.*?)51;22:UnableToPersistSession16:503f49fe39cf579319:nats-io/nats-server35:unable-to-persist-session-q-seq-v-v-41:unable to persist session %q (seq=%v): %v49:unable to persist session %q \(seq=(.+?)\): (.+?)k9:exception--k5:error14:server/mqtt.go3435;947:	sess.mu.Unlock()

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
}4;75:Keep session state small (subscriptions, queued messages) under max_payload50:Monitor $MQTT.sess stream health and disk capacity49:Ensure cluster quorum before reconnecting clients63:Use clean_session for clients that do not need durable sessions3;4:mqtt9:jetstream11:persistence24:jetstream-publish-failed40:3a66a489d262bf89b71a71c955c94920394532f324:2026-09-02T04:41:54.247Z-2;24:2026-09-08T15:18:49.778Zg6;l26:unable to persist session v0;113;0;nnl6: (seq=v1;118;0;nnl3:): v2;118;0;nn3;5:ps_idq0;3:seqt1;3:errt2;233:unable to persist session ("(?:[^"\\\n]|\\(?:[abfnrtv\\'"]|x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|[0-7]{3}))*"|'(?:[^'\\\n]|\\(?:[abfnrtv\\'"]|x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|[0-7]{3}))') \(seq=(.*?)\): (.*?)35;24:Qos1InFlightWindowIsFull16:59aa3418e32dd76519:nats-io/nats-server47:qos1-in-flight-window-is-full-d-messages-and-je-200:QoS1 in-flight window is full (%d messages) and JetStream has not acknowledged the oldest message within %v; failing the connection, the client will re-send unacknowledged PUBLISH packets on reconnect208:QoS1 in-flight window is full \((.+?) messages\) and JetStream has not acknowledged the oldest message within (.+?); failing the connection, the client will re-send unacknowledged PUBLISH packets on reconnectk10:validation--k5:error14:server/mqtt.go4727;1065:		return errMQTTAckPipelineStopped
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
        META.get_or_init(|| __ec::packed::decode(__PACKED, 3usize))
    }
    fn __matcher() -> &'static __ec::Matcher<&'static __ec::Entry> {
        static MATCHER: __ec::OnceLock<__ec::Matcher<&'static __ec::Entry>> = __ec::OnceLock::new();
        MATCHER.get_or_init(|| __ec::Matcher::from_items(__meta().iter().collect()))
    }
    static __INDICES: [u32; 3usize] = __ec::indices::<3usize>();
    static __SHAPES: &[u8] = b"\0\0\x01\0\x02\0";
    static __BY_ID: &[u8] = b"\x03\0\0\0\x10\0\0\0 \0\0\x000\0\0\0\0\0\0\0\x01\0\0\0\x02\0\0\x00443048c6cb7c33f3503f49fe39cf579359aa3418e32dd765";
    static __BY_SLUG: &[u8] = b"\x03\0\0\x000\0\0\0_\0\0\0\x82\0\0\0\0\0\0\0\x02\0\0\0\x01\0\0\0create-qos2-incoming-messages-stream-for-accountqos1-in-flight-window-is-full-d-messages-and-jeunable-to-persist-session-q-seq-v-v";
    static __BY_NAME: &[u8] = b"\x03\0\0\0*\0\0\0B\0\0\0X\0\0\0\0\0\0\0\x02\0\0\0\x01\0\0\0CreateQos2IncomingMessagesStreamForAccountQos1InFlightWindowIsFullUnableToPersistSession";
    impl NatsServerErrorKind {
        /// The number of kinds.
        pub const COUNT: usize = 3usize;
        /// Every kind, in order.
        pub const ALL: &'static [Self] = unsafe {
            ::core::slice::from_raw_parts(__INDICES.as_ptr().cast::<Self>(), 3usize)
        };
        /// Position of the kind in [`Self::ALL`].
        pub fn index(self) -> usize {
            self as usize
        }
        /// The kind at a position of [`Self::ALL`].
        pub fn from_index(index: usize) -> ::core::option::Option<Self> {
            match index < 3usize {
                true => {
                    ::core::option::Option::Some(unsafe {
                        ::core::mem::transmute::<u32, Self>(index as u32)
                    })
                }
                false => ::core::option::Option::None,
            }
        }
        /// The kind's metadata: its record and compiled message.
        pub fn metadata(self) -> &'static __ec::Entry {
            &__meta()[self.index()]
        }
        /// The variant name.
        pub fn name(self) -> &'static str {
            &__meta()[self.index()].name
        }
        /// The record id.
        pub fn id(self) -> &'static str {
            &__meta()[self.index()].record().id
        }
        /// The record slug.
        pub fn slug(self) -> &'static str {
            &__meta()[self.index()].record().slug
        }
        /// The kind whose record has this id.
        pub fn from_id(id: &str) -> ::core::option::Option<Self> {
            __ec::tables::lookup(__BY_ID, id).and_then(Self::from_index)
        }
        /// The first kind whose record has this slug.
        pub fn from_slug(slug: &str) -> ::core::option::Option<Self> {
            __ec::tables::lookup(__BY_SLUG, slug).and_then(Self::from_index)
        }
        /// The kind with this variant name.
        pub fn from_name(name: &str) -> ::core::option::Option<Self> {
            __ec::tables::lookup(__BY_NAME, name).and_then(Self::from_index)
        }
    }
    #[automatically_derived]
    impl ::core::fmt::Debug for NatsServerErrorKind {
        fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
            f.write_str(self.name())
        }
    }
    #[automatically_derived]
    impl ::core::fmt::Display for NatsServerErrorKind {
        fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
            f.write_str(self.name())
        }
    }
    #[automatically_derived]
    impl ::core::str::FromStr for NatsServerErrorKind {
        type Err = __ec::NoMatch;
        /// By variant name, id or slug.
        fn from_str(s: &str) -> ::core::result::Result<Self, Self::Err> {
            Self::from_name(s)
                .or_else(|| Self::from_id(s))
                .or_else(|| Self::from_slug(s))
                .ok_or_else(|| __ec::NoMatch {
                    catalog: "NatsServerError",
                    input: s.into(),
                })
        }
    }
    impl NatsServerError {
        /// The number of variants.
        pub const COUNT: usize = 3usize;
        /// The variant's kind.
        pub fn kind(&self) -> NatsServerErrorKind {
            <Self as __ec::CatalogEnum>::kind(self)
        }
        /// The variant's metadata: its record and compiled message.
        pub fn metadata(&self) -> &'static __ec::Entry {
            &__meta()[self.__index()]
        }
        /// The metadata of every variant, in order.
        pub fn entries() -> &'static [__ec::Entry] {
            __meta()
        }
        /// The error whose message is exactly `message`.
        pub fn parse(message: &str) -> ::core::option::Option<Self> {
            <Self as __ec::CatalogEnum>::parse(message)
        }
        /// The error whose message occurs in `line` (a log line, say).
        pub fn find(line: &str) -> ::core::option::Option<Self> {
            <Self as __ec::CatalogEnum>::find(line)
        }
        /// The error whose message occurs in `line`, and its byte range.
        pub fn find_span(
            line: &str,
        ) -> ::core::option::Option<(Self, ::core::ops::Range<usize>)> {
            <Self as __ec::CatalogEnum>::find_span(line)
        }
        /// Every error whose message occurs in `line`, most specific first.
        pub fn find_all(
            line: &str,
        ) -> ::std::vec::Vec<(Self, ::core::ops::Range<usize>)> {
            <Self as __ec::CatalogEnum>::find_all(line)
        }
        /// The field values, in field order.
        pub fn values(&self) -> ::std::vec::Vec<__ec::Value<'_>> {
            <Self as __ec::CatalogEnum>::values(self)
        }
        fn __index(&self) -> usize {
            unsafe { *(self as *const Self as *const u32) as usize }
        }
    }
    #[automatically_derived]
    impl __ec::CatalogEnum for NatsServerError {
        type Kind = NatsServerErrorKind;
        const COUNT: usize = 3usize;
        fn entries() -> &'static [__ec::Entry] {
            __meta()
        }
        fn matcher() -> &'static __ec::Matcher<&'static __ec::Entry> {
            __matcher()
        }
        fn index(&self) -> usize {
            self.__index()
        }
        fn kind_at(index: usize) -> ::core::option::Option<NatsServerErrorKind> {
            NatsServerErrorKind::from_index(index)
        }
        fn values(&self) -> ::std::vec::Vec<__ec::Value<'_>> {
            unsafe {
                match __ec::tables::shape(__SHAPES, self.__index()) {
                    __S(0u16) => {
                        __ec::layout::variant_values::<
                            Self,
                            __ec::layout::Fields2<
                                __ec::ByteString,
                                ::std::string::String,
                            >,
                        >(self)
                    }
                    __S(1u16) => {
                        __ec::layout::variant_values::<
                            Self,
                            __ec::layout::Fields3<
                                __ec::ByteString,
                                ::std::string::String,
                                ::std::string::String,
                            >,
                        >(self)
                    }
                    __S(2u16) => {
                        __ec::layout::variant_values::<
                            Self,
                            __ec::layout::Fields2<
                                ::core::primitive::i128,
                                ::std::string::String,
                            >,
                        >(self)
                    }
                    _ => ::std::vec::Vec::new(),
                }
            }
        }
        fn from_values(
            index: usize,
            values: ::std::vec::Vec<__ec::Value<'_>>,
        ) -> ::core::option::Option<Self> {
            unsafe {
                match __ec::tables::shape(__SHAPES, index) {
                    __S(0u16) => {
                        __ec::layout::variant_from_values::<
                            Self,
                            __ec::layout::Fields2<
                                __ec::ByteString,
                                ::std::string::String,
                            >,
                        >(index, values)
                    }
                    __S(1u16) => {
                        __ec::layout::variant_from_values::<
                            Self,
                            __ec::layout::Fields3<
                                __ec::ByteString,
                                ::std::string::String,
                                ::std::string::String,
                            >,
                        >(index, values)
                    }
                    __S(2u16) => {
                        __ec::layout::variant_from_values::<
                            Self,
                            __ec::layout::Fields2<
                                ::core::primitive::i128,
                                ::std::string::String,
                            >,
                        >(index, values)
                    }
                    _ => __N,
                }
            }
        }
    }
    #[automatically_derived]
    impl ::core::fmt::Display for NatsServerError {
        fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
            __ec::display(self, f)
        }
    }
    #[automatically_derived]
    impl ::core::fmt::Debug for NatsServerError {
        fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
            __ec::debug(self, f)
        }
    }
    #[automatically_derived]
    impl ::core::clone::Clone for NatsServerError {
        fn clone(&self) -> Self {
            __ec::clone(self)
        }
    }
    #[automatically_derived]
    impl ::core::cmp::PartialEq for NatsServerError {
        fn eq(&self, other: &Self) -> bool {
            __ec::eq(self, other)
        }
    }
    #[automatically_derived]
    impl ::std::error::Error for NatsServerError {}
    #[automatically_derived]
    impl ::core::str::FromStr for NatsServerError {
        type Err = __ec::NoMatch;
        /// Parses a whole message.
        fn from_str(s: &str) -> ::core::result::Result<Self, Self::Err> {
            Self::parse(s)
                .ok_or_else(|| __ec::NoMatch {
                    catalog: "NatsServerError",
                    input: s.into(),
                })
        }
    }
    __ec::integrations!(NatsServerError, NatsServerErrorKind);
};
