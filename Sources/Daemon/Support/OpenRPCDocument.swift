enum OpenRPCDocument { static let text = "{}" }
