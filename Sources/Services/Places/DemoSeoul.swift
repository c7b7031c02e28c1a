/// The geography the demo places are spread over: Seoul's 25 districts with
/// their main roads, its subway stations and landmarks. Positions are
/// approximate (a few hundred metres); the names are real. The 법정동 of the
/// addresses come from their boundaries (`DemoSeoulMap`).
enum DemoSeoul {
  struct District {
    /// `강남구`.
    let name: String
    let x: Double
    let y: Double
    /// How much of the city's commerce it holds, relatively.
    let weight: Int
    /// Roads of the district, for road-name addresses.
    let roads: [String]
  }

  struct Station {
    /// Without `역`: `강남`.
    let name: String
    /// `2호선`, `신분당선`.
    let line: String
    let x: Double
    let y: Double
  }

  struct Landmark {
    let name: String
    let categoryName: String
    let x: Double
    let y: Double
  }

  static let districts: [District] = [
    District(
      name: "종로구", x: 126.9794, y: 37.5730, weight: 5,
      roads: ["종로", "율곡로", "자하문로", "대학로", "세종대로", "삼일대로", "창경궁로"]),
    District(
      name: "중구", x: 126.9975, y: 37.5638, weight: 6,
      roads: ["세종대로", "을지로", "퇴계로", "다산로", "남대문로", "명동길", "동호로"]),
    District(
      name: "용산구", x: 126.9900, y: 37.5326, weight: 3,
      roads: ["이태원로", "한강대로", "녹사평대로", "원효로", "서빙고로", "한남대로", "보광로"]),
    District(
      name: "성동구", x: 127.0369, y: 37.5634, weight: 3,
      roads: ["왕십리로", "성수이로", "아차산로", "뚝섬로", "고산자로", "마조로", "독서당로"]),
    District(
      name: "광진구", x: 127.0822, y: 37.5385, weight: 4,
      roads: ["능동로", "아차산로", "자양로", "광나루로", "천호대로", "동일로", "뚝섬로"]),
    District(
      name: "동대문구", x: 127.0398, y: 37.5744, weight: 3,
      roads: ["왕산로", "천호대로", "망우로", "답십리로", "회기로", "장한로", "홍릉로"]),
    District(
      name: "중랑구", x: 127.0927, y: 37.6066, weight: 3,
      roads: ["망우로", "동일로", "면목로", "용마산로", "봉화산로", "신내로"]),
    District(
      name: "성북구", x: 127.0167, y: 37.5894, weight: 4,
      roads: ["보문로", "동소문로", "정릉로", "아리랑로", "화랑로", "종암로", "삼양로"]),
    District(
      name: "강북구", x: 127.0257, y: 37.6398, weight: 3,
      roads: ["도봉로", "삼양로", "솔매로", "인수봉로", "오패산로", "한천로"]),
    District(
      name: "도봉구", x: 127.0471, y: 37.6688, weight: 2,
      roads: ["도봉로", "방학로", "해등로", "노해로", "시루봉로", "우이천로"]),
    District(
      name: "노원구", x: 127.0565, y: 37.6542, weight: 4,
      roads: ["동일로", "노해로", "공릉로", "한글비석로", "상계로", "화랑로", "노원로"]),
    District(
      name: "은평구", x: 126.9292, y: 37.6027, weight: 4,
      roads: ["통일로", "연서로", "은평로", "증산로", "서오릉로", "진관2로", "갈현로"]),
    District(
      name: "서대문구", x: 126.9368, y: 37.5791, weight: 3,
      roads: ["연세로", "신촌로", "통일로", "연희로", "명지대길", "수색로", "이화여대길"]),
    District(
      name: "마포구", x: 126.9016, y: 37.5663, weight: 6,
      roads: ["양화로", "월드컵로", "마포대로", "독막로", "와우산로", "동교로", "성미산로", "월드컵북로"]),
    District(
      name: "양천구", x: 126.8664, y: 37.5170, weight: 4,
      roads: ["목동로", "오목로", "목동동로", "신월로", "남부순환로", "중앙로"]),
    District(
      name: "강서구", x: 126.8495, y: 37.5509, weight: 5,
      roads: ["공항대로", "강서로", "화곡로", "양천로", "등촌로", "마곡중앙로", "방화대로"]),
    District(
      name: "구로구", x: 126.8875, y: 37.4955, weight: 4,
      roads: ["구로중앙로", "디지털로", "경인로", "새말로", "고척로", "오리로", "도림로"]),
    District(
      name: "금천구", x: 126.8956, y: 37.4569, weight: 3,
      roads: ["가산디지털1로", "시흥대로", "벚꽃로", "독산로", "금하로", "디지털로"]),
    District(
      name: "영등포구", x: 126.8962, y: 37.5264, weight: 6,
      roads: ["여의대로", "영중로", "국제금융로", "당산로", "선유로", "경인로", "도신로", "의사당대로"]),
    District(
      name: "동작구", x: 126.9393, y: 37.5124, weight: 3,
      roads: ["노량진로", "상도로", "동작대로", "장승배기로", "여의대방로", "사당로"]),
    District(
      name: "관악구", x: 126.9516, y: 37.4784, weight: 4,
      roads: ["관악로", "남부순환로", "신림로", "봉천로", "은천로", "호암로"]),
    District(
      name: "서초구", x: 127.0324, y: 37.4837, weight: 7,
      roads: ["서초대로", "강남대로", "반포대로", "사평대로", "방배로", "양재대로", "효령로", "남부순환로"]),
    District(
      name: "강남구", x: 127.0473, y: 37.5172, weight: 10,
      roads: ["테헤란로", "강남대로", "봉은사로", "논현로", "도산대로", "언주로", "선릉로", "학동로", "영동대로", "삼성로"]),
    District(
      name: "송파구", x: 127.1059, y: 37.5145, weight: 7,
      roads: ["올림픽로", "송파대로", "백제고분로", "오금로", "양재대로", "석촌호수로", "중대로"]),
    District(
      name: "강동구", x: 127.1238, y: 37.5301, weight: 4,
      roads: ["천호대로", "양재대로", "올림픽로", "구천면로", "고덕로", "상암로", "성내로"]),
  ]

  static let stations: [Station] = [
    Station(name: "시청", line: "1호선", x: 126.9770, y: 37.5657),
    Station(name: "서울역", line: "1호선", x: 126.9723, y: 37.5547),
    Station(name: "종각", line: "1호선", x: 126.9831, y: 37.5702),
    Station(name: "종로3가", line: "1호선", x: 126.9918, y: 37.5714),
    Station(name: "종로5가", line: "1호선", x: 127.0019, y: 37.5709),
    Station(name: "동대문", line: "1호선", x: 127.0095, y: 37.5714),
    Station(name: "신설동", line: "1호선", x: 127.0247, y: 37.5752),
    Station(name: "제기동", line: "1호선", x: 127.0349, y: 37.5781),
    Station(name: "청량리", line: "1호선", x: 127.0470, y: 37.5802),
    Station(name: "회기", line: "1호선", x: 127.0576, y: 37.5898),
    Station(name: "용산", line: "1호선", x: 126.9648, y: 37.5298),
    Station(name: "노량진", line: "1호선", x: 126.9425, y: 37.5142),
    Station(name: "영등포", line: "1호선", x: 126.9072, y: 37.5157),
    Station(name: "구로", line: "1호선", x: 126.8826, y: 37.5031),
    Station(name: "을지로입구", line: "2호선", x: 126.9826, y: 37.5660),
    Station(name: "을지로3가", line: "2호선", x: 126.9919, y: 37.5663),
    Station(name: "동대문역사문화공원", line: "2호선", x: 127.0079, y: 37.5652),
    Station(name: "신당", line: "2호선", x: 127.0195, y: 37.5656),
    Station(name: "왕십리", line: "2호선", x: 127.0374, y: 37.5612),
    Station(name: "한양대", line: "2호선", x: 127.0441, y: 37.5556),
    Station(name: "뚝섬", line: "2호선", x: 127.0474, y: 37.5473),
    Station(name: "성수", line: "2호선", x: 127.0560, y: 37.5446),
    Station(name: "건대입구", line: "2호선", x: 127.0703, y: 37.5404),
    Station(name: "구의", line: "2호선", x: 127.0858, y: 37.5370),
    Station(name: "강변", line: "2호선", x: 127.0947, y: 37.5351),
    Station(name: "잠실나루", line: "2호선", x: 127.1038, y: 37.5207),
    Station(name: "잠실", line: "2호선", x: 127.1000, y: 37.5133),
    Station(name: "잠실새내", line: "2호선", x: 127.0864, y: 37.5116),
    Station(name: "종합운동장", line: "2호선", x: 127.0737, y: 37.5110),
    Station(name: "삼성", line: "2호선", x: 127.0631, y: 37.5089),
    Station(name: "선릉", line: "2호선", x: 127.0490, y: 37.5045),
    Station(name: "역삼", line: "2호선", x: 127.0365, y: 37.5006),
    Station(name: "강남", line: "2호선", x: 127.0276, y: 37.4979),
    Station(name: "교대", line: "2호선", x: 127.0141, y: 37.4934),
    Station(name: "서초", line: "2호선", x: 127.0076, y: 37.4918),
    Station(name: "방배", line: "2호선", x: 126.9975, y: 37.4815),
    Station(name: "사당", line: "2호선", x: 126.9816, y: 37.4765),
    Station(name: "낙성대", line: "2호선", x: 126.9637, y: 37.4769),
    Station(name: "서울대입구", line: "2호선", x: 126.9527, y: 37.4812),
    Station(name: "봉천", line: "2호선", x: 126.9416, y: 37.4825),
    Station(name: "신림", line: "2호선", x: 126.9297, y: 37.4842),
    Station(name: "신대방", line: "2호선", x: 126.9131, y: 37.4875),
    Station(name: "구로디지털단지", line: "2호선", x: 126.9015, y: 37.4853),
    Station(name: "대림", line: "2호선", x: 126.8951, y: 37.4926),
    Station(name: "신도림", line: "2호선", x: 126.8913, y: 37.5089),
    Station(name: "문래", line: "2호선", x: 126.8947, y: 37.5180),
    Station(name: "영등포구청", line: "2호선", x: 126.8960, y: 37.5250),
    Station(name: "당산", line: "2호선", x: 126.9025, y: 37.5344),
    Station(name: "합정", line: "2호선", x: 126.9136, y: 37.5495),
    Station(name: "홍대입구", line: "2호선", x: 126.9245, y: 37.5572),
    Station(name: "신촌", line: "2호선", x: 126.9368, y: 37.5552),
    Station(name: "이대", line: "2호선", x: 126.9463, y: 37.5567),
    Station(name: "아현", line: "2호선", x: 126.9563, y: 37.5574),
    Station(name: "충정로", line: "2호선", x: 126.9636, y: 37.5600),
    Station(name: "연신내", line: "3호선", x: 126.9210, y: 37.6190),
    Station(name: "불광", line: "3호선", x: 126.9297, y: 37.6103),
    Station(name: "홍제", line: "3호선", x: 126.9440, y: 37.5890),
    Station(name: "독립문", line: "3호선", x: 126.9578, y: 37.5744),
    Station(name: "경복궁", line: "3호선", x: 126.9731, y: 37.5757),
    Station(name: "안국", line: "3호선", x: 126.9855, y: 37.5765),
    Station(name: "충무로", line: "3호선", x: 126.9944, y: 37.5612),
    Station(name: "약수", line: "3호선", x: 127.0107, y: 37.5543),
    Station(name: "옥수", line: "3호선", x: 127.0184, y: 37.5405),
    Station(name: "압구정", line: "3호선", x: 127.0286, y: 37.5270),
    Station(name: "신사", line: "3호선", x: 127.0201, y: 37.5163),
    Station(name: "잠원", line: "3호선", x: 127.0110, y: 37.5128),
    Station(name: "고속터미널", line: "3호선", x: 127.0049, y: 37.5049),
    Station(name: "남부터미널", line: "3호선", x: 127.0145, y: 37.4850),
    Station(name: "양재", line: "3호선", x: 127.0343, y: 37.4842),
    Station(name: "도곡", line: "3호선", x: 127.0555, y: 37.4909),
    Station(name: "대치", line: "3호선", x: 127.0633, y: 37.4946),
    Station(name: "수서", line: "3호선", x: 127.1016, y: 37.4873),
    Station(name: "가락시장", line: "3호선", x: 127.1183, y: 37.4925),
    Station(name: "노원", line: "4호선", x: 127.0617, y: 37.6550),
    Station(name: "창동", line: "4호선", x: 127.0475, y: 37.6531),
    Station(name: "수유", line: "4호선", x: 127.0253, y: 37.6380),
    Station(name: "미아사거리", line: "4호선", x: 127.0300, y: 37.6134),
    Station(name: "성신여대입구", line: "4호선", x: 127.0165, y: 37.5926),
    Station(name: "혜화", line: "4호선", x: 127.0019, y: 37.5822),
    Station(name: "명동", line: "4호선", x: 126.9860, y: 37.5609),
    Station(name: "회현", line: "4호선", x: 126.9785, y: 37.5588),
    Station(name: "숙대입구", line: "4호선", x: 126.9723, y: 37.5448),
    Station(name: "삼각지", line: "4호선", x: 126.9730, y: 37.5347),
    Station(name: "이촌", line: "4호선", x: 126.9741, y: 37.5222),
    Station(name: "총신대입구", line: "4호선", x: 126.9822, y: 37.4868),
    Station(name: "김포공항", line: "5호선", x: 126.8013, y: 37.5624),
    Station(name: "발산", line: "5호선", x: 126.8377, y: 37.5589),
    Station(name: "까치산", line: "5호선", x: 126.8468, y: 37.5317),
    Station(name: "목동", line: "5호선", x: 126.8645, y: 37.5260),
    Station(name: "여의도", line: "5호선", x: 126.9243, y: 37.5216),
    Station(name: "여의나루", line: "5호선", x: 126.9327, y: 37.5271),
    Station(name: "마포", line: "5호선", x: 126.9459, y: 37.5395),
    Station(name: "공덕", line: "5호선", x: 126.9515, y: 37.5443),
    Station(name: "광화문", line: "5호선", x: 126.9768, y: 37.5710),
    Station(name: "답십리", line: "5호선", x: 127.0525, y: 37.5668),
    Station(name: "장한평", line: "5호선", x: 127.0645, y: 37.5613),
    Station(name: "군자", line: "5호선", x: 127.0795, y: 37.5571),
    Station(name: "광나루", line: "5호선", x: 127.1035, y: 37.5453),
    Station(name: "천호", line: "5호선", x: 127.1238, y: 37.5386),
    Station(name: "강동", line: "5호선", x: 127.1322, y: 37.5358),
    Station(name: "올림픽공원", line: "5호선", x: 127.1308, y: 37.5162),
    Station(name: "오금", line: "5호선", x: 127.1282, y: 37.5022),
    Station(name: "디지털미디어시티", line: "6호선", x: 126.8996, y: 37.5770),
    Station(name: "월드컵경기장", line: "6호선", x: 126.8993, y: 37.5697),
    Station(name: "망원", line: "6호선", x: 126.9100, y: 37.5560),
    Station(name: "상수", line: "6호선", x: 126.9226, y: 37.5477),
    Station(name: "녹사평", line: "6호선", x: 126.9873, y: 37.5344),
    Station(name: "이태원", line: "6호선", x: 126.9945, y: 37.5345),
    Station(name: "한강진", line: "6호선", x: 127.0017, y: 37.5396),
    Station(name: "안암", line: "6호선", x: 127.0295, y: 37.5863),
    Station(name: "고려대", line: "6호선", x: 127.0365, y: 37.5906),
    Station(name: "석계", line: "6호선", x: 127.0654, y: 37.6148),
    Station(name: "공릉", line: "7호선", x: 127.0730, y: 37.6256),
    Station(name: "태릉입구", line: "7호선", x: 127.0751, y: 37.6178),
    Station(name: "상봉", line: "7호선", x: 127.0857, y: 37.5965),
    Station(name: "면목", line: "7호선", x: 127.0875, y: 37.5885),
    Station(name: "어린이대공원", line: "7호선", x: 127.0742, y: 37.5480),
    Station(name: "뚝섬유원지", line: "7호선", x: 127.0668, y: 37.5315),
    Station(name: "청담", line: "7호선", x: 127.0541, y: 37.5193),
    Station(name: "강남구청", line: "7호선", x: 127.0413, y: 37.5171),
    Station(name: "학동", line: "7호선", x: 127.0317, y: 37.5143),
    Station(name: "논현", line: "7호선", x: 127.0215, y: 37.5110),
    Station(name: "이수", line: "7호선", x: 126.9817, y: 37.4856),
    Station(name: "숭실대입구", line: "7호선", x: 126.9537, y: 37.4963),
    Station(name: "가산디지털단지", line: "7호선", x: 126.8829, y: 37.4816),
    Station(name: "문정", line: "8호선", x: 127.1225, y: 37.4857),
    Station(name: "석촌", line: "8호선", x: 127.1057, y: 37.5057),
    Station(name: "마곡나루", line: "9호선", x: 126.8292, y: 37.5666),
    Station(name: "가양", line: "9호선", x: 126.8543, y: 37.5614),
    Station(name: "염창", line: "9호선", x: 126.8750, y: 37.5471),
    Station(name: "국회의사당", line: "9호선", x: 126.9178, y: 37.5282),
    Station(name: "신논현", line: "9호선", x: 127.0249, y: 37.5045),
    Station(name: "언주", line: "9호선", x: 127.0340, y: 37.5073),
    Station(name: "선정릉", line: "9호선", x: 127.0433, y: 37.5103),
    Station(name: "봉은사", line: "9호선", x: 127.0603, y: 37.5142),
    Station(name: "강남", line: "신분당선", x: 127.0283, y: 37.4966),
    Station(name: "양재", line: "신분당선", x: 127.0348, y: 37.4837),
    Station(name: "왕십리", line: "경의중앙선", x: 127.0366, y: 37.5617),
    Station(name: "선릉", line: "수인분당선", x: 127.0488, y: 37.5050),
    Station(name: "공덕", line: "6호선", x: 126.9520, y: 37.5439),
    Station(name: "합정", line: "6호선", x: 126.9140, y: 37.5487),
    Station(name: "고속터미널", line: "9호선", x: 127.0053, y: 37.5041),
    Station(name: "종로3가", line: "3호선", x: 126.9920, y: 37.5717),
  ]

  static let landmarks: [Landmark] = [
    Landmark(name: "경복궁", categoryName: "여행 > 관광,명소 > 문화유적 > 고궁,궁", x: 126.9770, y: 37.5796),
    Landmark(name: "창덕궁", categoryName: "여행 > 관광,명소 > 문화유적 > 고궁,궁", x: 126.9910, y: 37.5794),
    Landmark(name: "덕수궁", categoryName: "여행 > 관광,명소 > 문화유적 > 고궁,궁", x: 126.9752, y: 37.5658),
    Landmark(name: "창경궁", categoryName: "여행 > 관광,명소 > 문화유적 > 고궁,궁", x: 126.9948, y: 37.5788),
    Landmark(name: "N서울타워", categoryName: "여행 > 관광,명소 > 전망대", x: 126.9882, y: 37.5512),
    Landmark(name: "롯데월드타워 서울스카이", categoryName: "여행 > 관광,명소 > 전망대", x: 127.1025, y: 37.5126),
    Landmark(name: "북촌한옥마을", categoryName: "여행 > 관광,명소 > 테마거리", x: 126.9850, y: 37.5826),
    Landmark(name: "인사동거리", categoryName: "여행 > 관광,명소 > 테마거리", x: 126.9856, y: 37.5740),
    Landmark(name: "청계천", categoryName: "여행 > 관광,명소 > 하천", x: 126.9784, y: 37.5694),
    Landmark(name: "동대문디자인플라자", categoryName: "여행 > 관광,명소 > 랜드마크", x: 127.0095, y: 37.5665),
    Landmark(name: "광화문광장", categoryName: "여행 > 관광,명소 > 광장", x: 126.9769, y: 37.5725),
    Landmark(name: "석촌호수", categoryName: "여행 > 관광,명소 > 호수", x: 127.1040, y: 37.5093),
    Landmark(name: "여의도한강공원", categoryName: "여행 > 공원 > 도시근린공원", x: 126.9340, y: 37.5284),
    Landmark(name: "반포한강공원", categoryName: "여행 > 공원 > 도시근린공원", x: 126.9960, y: 37.5100),
    Landmark(name: "서울숲", categoryName: "여행 > 공원 > 도시근린공원", x: 127.0374, y: 37.5444),
    Landmark(name: "올림픽공원", categoryName: "여행 > 공원 > 도시근린공원", x: 127.1214, y: 37.5202),
    Landmark(name: "남산공원", categoryName: "여행 > 공원 > 도시근린공원", x: 126.9900, y: 37.5530),
    Landmark(name: "명동거리", categoryName: "여행 > 관광,명소 > 테마거리", x: 126.9857, y: 37.5636),
    Landmark(name: "익선동 한옥거리", categoryName: "여행 > 관광,명소 > 테마거리", x: 126.9900, y: 37.5741),
    Landmark(name: "경의선숲길", categoryName: "여행 > 관광,명소 > 산책로", x: 126.9245, y: 37.5598),
    Landmark(name: "낙산공원", categoryName: "여행 > 공원 > 도시근린공원", x: 127.0076, y: 37.5806),
    Landmark(name: "하늘공원", categoryName: "여행 > 공원 > 도시근린공원", x: 126.8850, y: 37.5680),
    Landmark(name: "국립중앙박물관", categoryName: "문화,예술 > 문화시설 > 박물관", x: 126.9804, y: 37.5240),
    Landmark(name: "전쟁기념관", categoryName: "문화,예술 > 문화시설 > 기념관", x: 126.9772, y: 37.5365),
    Landmark(name: "봉은사", categoryName: "여행 > 관광,명소 > 사찰", x: 127.0577, y: 37.5150),
    Landmark(name: "조계사", categoryName: "여행 > 관광,명소 > 사찰", x: 126.9818, y: 37.5740),
  ]
}
