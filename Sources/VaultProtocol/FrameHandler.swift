public import NIOCore

/// Why a frame could not be read.
public enum FrameError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The length prefix names more than the maximum.
    case tooLarge(length: Int, maximum: Int)
    /// A frame began but did not arrive whole within the frame timeout.
    case stalled(seconds: Int64)
    /// The peer closed in the middle of a frame.
    case truncated

    public var description: String {
        switch self {
        case .tooLarge(let length, let maximum):
            "a frame of \(length) bytes exceeds the maximum of \(maximum) bytes"
        case .stalled(let seconds):
            "a frame began but did not arrive whole within \(seconds) s"
        case .truncated:
            "the connection closed in the middle of a frame"
        }
    }
}

/// Frames: a 4-byte big-endian payload length, then the payload (a UTF-8 JSON message).
///
/// Inbound, it turns bytes into whole payloads; a length above `maximumFrameBytes`, or a frame
/// that begins and is not complete within `frameTimeout`, is a ``FrameError`` passed on as an
/// error (the reader answers it and closes). Outbound, it prefixes each payload with its length.
public final class FrameHandler: ChannelDuplexHandler {
    public typealias InboundIn = ByteBuffer
    public typealias InboundOut = ByteBuffer
    public typealias OutboundIn = ByteBuffer
    public typealias OutboundOut = ByteBuffer

    private let maximumFrameBytes: Int
    private let frameTimeout: TimeAmount?
    private var buffer: ByteBuffer?
    private var stallTimer: Scheduled<Void>?
    private var failed = false

    public init(maximumFrameBytes: Int, frameTimeout: TimeAmount? = nil) {
        self.maximumFrameBytes = maximumFrameBytes
        self.frameTimeout = frameTimeout
    }

    public func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !failed else { return }
        var incoming = unwrapInboundIn(data)
        if buffer == nil {
            buffer = incoming
        } else {
            buffer!.writeBuffer(&incoming)
        }
        var completed = 0
        while !failed, let frame = nextFrame(context: context) {
            completed += 1
            context.fireChannelRead(wrapInboundOut(frame))
        }
        if buffer?.readableBytes == 0 {
            buffer = nil
        } else {
            buffer?.discardReadBytes()
        }
        updateStallTimer(context: context, newFrame: completed > 0)
    }

    private func nextFrame(context: ChannelHandlerContext) -> ByteBuffer? {
        guard var current = buffer, let length = current.getInteger(at: current.readerIndex, as: UInt32.self) else {
            return nil
        }
        guard Int(length) <= maximumFrameBytes else {
            fail(context: context, FrameError.tooLarge(length: Int(length), maximum: maximumFrameBytes))
            return nil
        }
        guard current.readableBytes >= 4 + Int(length) else { return nil }
        current.moveReaderIndex(forwardBy: 4)
        let frame = current.readSlice(length: Int(length))!
        buffer = current
        return frame
    }

    /// The timer runs from the moment a frame begins until it is whole: bytes trickling in do not
    /// restart it; only a new frame does.
    private func updateStallTimer(context: ChannelHandlerContext, newFrame: Bool) {
        let pending = !failed && (buffer?.readableBytes ?? 0) > 0
        if stallTimer != nil, pending, !newFrame { return }
        stallTimer?.cancel()
        stallTimer = nil
        guard pending, let frameTimeout else { return }
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        stallTimer = context.eventLoop.scheduleTask(in: frameTimeout) {
            let (handler, context) = loopBound.value
            handler.fail(context: context, FrameError.stalled(seconds: frameTimeout.nanoseconds / 1_000_000_000))
        }
    }

    private func fail(context: ChannelHandlerContext, _ error: FrameError) {
        guard !failed else { return }
        failed = true
        buffer = nil
        stallTimer?.cancel()
        stallTimer = nil
        context.fireErrorCaught(error)
    }

    public func channelInactive(context: ChannelHandlerContext) {
        stallTimer?.cancel()
        stallTimer = nil
        if !failed, let buffer, buffer.readableBytes > 0 {
            failed = true
            context.fireErrorCaught(FrameError.truncated)
        }
        context.fireChannelInactive()
    }

    public func handlerRemoved(context: ChannelHandlerContext) {
        stallTimer?.cancel()
        stallTimer = nil
    }

    /// The largest payload copied behind its length into one buffer.
    public static let copiedPayloadBytes = 16 * 1024

    public func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let payload = unwrapOutboundIn(data)
        // A large payload goes out after its length as a buffer of its own (one `writev`), not
        // copied behind it; a small one is copied, one buffer being cheaper than two.
        guard payload.readableBytes <= Self.copiedPayloadBytes else {
            var length = context.channel.allocator.buffer(capacity: 4)
            length.writeInteger(UInt32(payload.readableBytes))
            context.write(wrapOutboundOut(length), promise: nil)
            context.write(wrapOutboundOut(payload), promise: promise)
            return
        }
        var framed = context.channel.allocator.buffer(capacity: 4 + payload.readableBytes)
        framed.writeInteger(UInt32(payload.readableBytes))
        framed.writeImmutableBuffer(payload)
        context.write(wrapOutboundOut(framed), promise: promise)
    }
}

@available(*, unavailable)
extension FrameHandler: Sendable {}
