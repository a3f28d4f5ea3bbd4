/// The Simplified Chinese copy (zh-Hans): the guidelines' own source language. The prompts follow
/// the pattern of ../shared/guidance/nfc.md: "将[对象]靠近读卡器以了解更多信息。" /
/// "现在将另一个[对象]靠近读卡器。". Never "标签", "轻触", "轻点", "触碰" or "近场通信".
///
/// The object's name is a parameter: a name an app gives in Chinese is used as it is; the
/// English names nfcscan's own options suggest (poster, badge, …) are translated, so `--object
/// poster` reads naturally in both languages. Chinese needs no article or inflection: the name is
/// inserted as it is, with "另一个" before it for "another".
public struct SimplifiedChineseScanCopy: ScanCopyCatalog {
    public let object: String?

    public init(object: String? = nil) { self.object = object }

    /// Chinese names of the objects nfcscan's documentation suggests.
    static let knownNames: [String: String] = [
        "poster": "海报", "badge": "胸牌", "toy": "玩具", "product label": "商品贴纸", "label": "贴纸",
        "sticker": "贴纸", "card": "卡片", "ticket": "票", "item": "物品", "object": "物品", "book": "书",
    ]

    /// The object's name in Chinese (the write copy shares it).
    var localName: String { name }

    private var name: String {
        guard let object else { return "物品" }
        return Self.knownNames[object.lowercased()] ?? object
    }

    public var firstPrompt: String {
        object == nil ? "将物品靠近读卡器。" : "将\(name)靠近读卡器以了解更多信息。"
    }
    public var laterPrompt: String { "现在将另一个\(name)靠近读卡器。" }
    public var reading: String { "正在读取\(name)，请保持不动。" }
    public func secondsLeft(_ seconds: Int) -> String { "\(seconds) 秒" }

    public var timedOut: String { "没有\(name)及时靠近读卡器。请重试。" }
    public var noReader: String { "未找到读卡器。请连接读卡器后重试。" }
    public var connectReader: String { "请连接读卡器以扫描\(name)。" }
    public var readerBusy: String { "另一个程序正在使用读卡器。请关闭它后重试。" }
    public var readerNotPermitted: String { "你无权使用读卡器。请联系管理员。" }
    public var readerFailed: String { "读卡器停止工作。请重新连接后重试。" }
    public var movedAwayTooSoon: String { "\(name)移开得太早。请多停留一会儿。" }
    public var readFailed: String { "无法读取\(name)。请重试。" }
    public var unsupportedObject: String { "暂时无法读取这种\(name)。" }
    public var unreadableContent: String { "\(name)中的内容无法显示。" }
    public var empty: String { "\(name)中没有内容。" }
    public var blankObject: String { "\(name)是空白的，还没有保存过内容。" }
    public var halfWritten: String { "保存到\(name)时被中断。请重新保存。" }
    public var moreDetail: String { "加上 --verbose 再次运行可查看原因。" }

    public func link(_ value: String) -> String { "链接：\(value)" }
    public func phoneNumber(_ value: String) -> String { "电话号码：\(value)" }
    public func emailAddress(_ value: String) -> String { "电子邮件地址：\(value)" }
    public func text(_ value: String) -> String { "文字：\(value)" }
    public func title(_ value: String) -> String { "标题：\(value)" }
    public func wifiNetwork(_ name: String) -> String { "Wi-Fi 网络：\(name)" }
    public func contact(_ name: String) -> String { "联系人：\(name)" }
    public var contactWithoutName: String { "一个没有姓名的联系人。" }
    public func app(_ name: String) -> String { "应用：\(name)" }
    public func bluetoothDevice(_ name: String) -> String { "蓝牙设备：\(name)" }
    public var bluetoothDeviceWithoutName: String { "一个没有名称的蓝牙设备。" }
    public var deviceToConnect: String { "一个可连接的设备。" }
    public var otherContent: String { "本程序无法显示的内容。" }
    public var unreadableRecord: String { "无法读取的内容。" }
    public var signature: String { "一个未经验证的签名。" }

    public var notificationSender: String { "附近的物品" }
    public func notificationOpenLink(_ link: String) -> String { "打开 \(link)？" }
    public func notificationOpen(_ content: OfferedContent, in app: String) -> String {
        switch content {
        case .link: "在“\(app)”中打开链接？"
        case .phoneNumber: "在“\(app)”中打开电话号码？"
        case .emailAddress: "在“\(app)”中打开电子邮件地址？"
        case .text: "在“\(app)”中打开文字？"
        case .contact: "在“\(app)”中打开联系人？"
        case .wifiNetwork: "在“\(app)”中打开 Wi-Fi 网络？"
        case .bluetoothDevice: "在“\(app)”中打开蓝牙设备？"
        case .item: "在“\(app)”中打开\(name)？"
        }
    }
    public func notificationOpenApp(_ app: String) -> String { "打开“\(app)”？" }
    public func notificationHolds(_ content: OfferedContent, _ value: String) -> String {
        switch content {
        case .link: "\(name)链接到 \(value)。"
        case .phoneNumber: "\(name)中有一个电话号码：\(value)。"
        case .emailAddress: "\(name)中有一个电子邮件地址：\(value)。"
        case .text: "\(name)上写着“\(value)”。"
        case .contact: "\(name)中有一个联系人：\(value)。"
        case .wifiNetwork: "\(name)中有一个 Wi-Fi 网络：\(value)。"
        case .bluetoothDevice: "\(name)中有一个蓝牙设备：\(value)。"
        case .item: "\(name)中有\(value)。"
        }
    }
    public var actionOpen: String { "打开" }
    public var actionOpenInBrowser: String { "在浏览器中打开" }
    public func notificationDefault(_ offer: DefaultAppOffer) -> String {
        switch offer {
        case .addContact(let name?, let app): "将\(name)添加到“\(app)”？"
        case .addContact(nil, let app): "将联系人添加到“\(app)”？"
        case .addEvent(let app): "将日程添加到“\(app)”？"
        case .call(let number): "拨打 \(number)？"
        case .sendMessage(let number): "给 \(number) 发信息？"
        case .writeEmail(let address): "给 \(address) 写邮件？"
        case .joinNetwork(let name): "加入网络“\(name)”？"
        case .openLocation(let app): "在“\(app)”中打开位置？"
        case .openPicture(let app): "在“\(app)”中打开图片？"
        case .openDocument(let app): "在“\(app)”中打开文档？"
        case .openText(let app): "在“\(app)”中打开文字？"
        case .openLink(let app): "在“\(app)”中打开链接？"
        }
    }
    public func action(_ offer: DefaultAppOffer) -> String {
        switch offer {
        case .addContact, .addEvent: "添加"
        case .call: "拨打"
        case .sendMessage: "发信息"
        case .writeEmail: "写邮件"
        case .joinNetwork: "加入"
        case .openLocation, .openPicture, .openDocument, .openText, .openLink: "打开"
        }
    }
    public func handlerFailed(app: String) -> String { "无法将\(name)发送到“\(app)”。请重试。" }
    public var browserFailed: String { "无法打开链接。请重试。" }
    public func networkFailed(_ name: String) -> String { "无法加入网络“\(name)”。请重试。" }

    public var backgroundOn: String { "后台扫描已开启。" }
    public func backgroundPaused(_ reason: BackgroundPause) -> String {
        switch reason {
        case .noReader: "后台扫描已暂停，连接读卡器后将恢复。"
        case .scanSession: "有应用正在扫描，后台扫描已暂停。"
        case .readerInUse: "读卡器正在使用中，后台扫描已暂停。"
        case .camera: "相机正在使用中，后台扫描已暂停。"
        case .airplaneMode: "飞行模式已开启，后台扫描已暂停。"
        case .lockedAfterRestart: "重启后尚未解锁电脑，后台扫描已暂停。"
        case .screenOff: "屏幕已关闭，后台扫描已暂停。"
        }
    }
    public var backgroundPausedOther: String { "后台扫描已暂停。" }
    public var backgroundServiceOff: String { "后台扫描已关闭：后台服务未运行。" }
    public func backgroundUnchecked(_ condition: BackgroundPause) -> String {
        switch condition {
        case .camera: "无法检测相机状态，它不会暂停扫描。"
        case .airplaneMode: "无法检测飞行模式，它不会暂停扫描。"
        case .lockedAfterRestart: "无法检测锁定状态，它不会暂停扫描。"
        case .screenOff: "无法检测屏幕状态，它不会暂停扫描。"
        case .noReader, .scanSession, .readerInUse: "后台扫描无法检测所有情况。"
        }
    }
    public func backgroundIgnoring(_ condition: BackgroundPause) -> String {
        switch condition {
        case .camera: "已设置为相机使用时继续扫描。"
        case .airplaneMode: "已设置为飞行模式下继续扫描。"
        case .lockedAfterRestart: "已设置为重启后锁定时继续扫描。"
        case .screenOff: "已设置为屏幕关闭时继续扫描。"
        case .noReader, .scanSession, .readerInUse: "已设置为在更多情况下继续扫描。"
        }
    }
    public var radioDisabled: String { "飞行模式已开启，无法扫描。" }
    public func brokerConnected(station: String) -> String { "已连接消息服务器：\(station)。" }
    public var brokerDisconnected: String { "无法连接消息服务器，正在重试。" }
    public func brokerWaiting(_ count: Int) -> String { "\(count)次扫描等待发送。" }
    public func brokerDropped(_ count: Int) -> String { "没有空间保存，已丢失\(count)次扫描。" }
}
