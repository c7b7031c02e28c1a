/// How the demo names a place of each category: patterns with Kakao-style
/// category paths, chosen by weight.
///
/// A pattern is text with tokens: `{stem}` the neighbourhood (`역삼`),
/// `{dong}` its full name (`역삼동`), `{gu}` the district (`강남구`),
/// `{guStem}` (`강남`), `{road}`, `{station}` the nearest station without
/// `역`, `{line}` its line, `{branch}` a branch name made of those, `{word}`
/// a soft word for cafés and shops, `{trust}` a word clinics and agencies
/// use, `{surname}`, `{n}` a digit, and `{pick:a|b|c}` one of the choices.
struct DemoPlaceTemplate: Sendable {
  enum Part: Sendable {
    case text(String)
    case stem
    case dong
    case gu
    case guStem
    case road
    case station
    case line
    case branch
    case word
    case trust
    case surname
    case number
    case pick([String])
  }

  let parts: [Part]
  let categoryName: String
  let weight: Int

  init(_ pattern: String, _ categoryName: String, _ weight: Int = 1) {
    self.categoryName = categoryName
    self.weight = weight
    var parts: [Part] = []
    var rest = Substring(pattern)
    while let open = rest.firstIndex(of: "{"),
      let close = rest[open...].firstIndex(of: "}")
    {
      if open > rest.startIndex { parts.append(.text(String(rest[..<open]))) }
      let token = rest[rest.index(after: open)..<close]
      switch token {
      case "stem": parts.append(.stem)
      case "dong": parts.append(.dong)
      case "gu": parts.append(.gu)
      case "guStem": parts.append(.guStem)
      case "road": parts.append(.road)
      case "station": parts.append(.station)
      case "line": parts.append(.line)
      case "branch": parts.append(.branch)
      case "word": parts.append(.word)
      case "trust": parts.append(.trust)
      case "surname": parts.append(.surname)
      case "n": parts.append(.number)
      default:
        if token.hasPrefix("pick:") {
          parts.append(.pick(token.dropFirst(5).split(separator: "|").map(String.init)))
        } else {
          parts.append(.text(String(rest[open...close])))
        }
      }
      rest = rest[rest.index(after: close)...]
    }
    if !rest.isEmpty { parts.append(.text(String(rest))) }
    self.parts = parts
  }
}

extension DemoPlaceTemplate {
  static let words = [
    "온기", "모모", "달빛", "소소", "오늘", "무드", "하루", "담", "봄날", "라온", "다온", "숲", "노을",
    "별빛", "초록", "느린", "솔", "마루", "한아름", "아지트", "블루", "그린", "오렌지", "화이트", "브라운",
    "루나", "모노", "노아", "리베", "코지", "데이", "플랫", "포레스트", "시월", "구름", "바람", "여름",
    "가을", "새벽", "정원", "하늘", "바다", "고요", "은하", "두레", "소울", "빈티지", "골목", "테라스",
  ]

  static let trustWords = [
    "연세", "서울", "바른", "튼튼", "맑은", "밝은", "365", "하나", "미소", "편한", "새솔", "온누리",
    "드림", "경희", "고려", "한빛", "참", "우리", "사랑", "행복", "늘푸른", "으뜸", "제일", "중앙",
    "굿모닝", "베스트", "새봄", "한마음", "건강", "푸른",
  ]

  static let surnames = [
    "김", "이", "박", "최", "정", "강", "조", "윤", "장", "임", "한", "오", "서", "신", "권", "황", "안", "송",
  ]

  static let branchSuffixes = [
    "중앙", "본", "사거리", "역", "로데오", "센터", "타워", "시장", "1", "2", "대로", "파크", "먹자골목",
  ]

  /// Clinics by specialty: the name ends with it, the path names it.
  private static let clinics: [DemoPlaceTemplate] = [
    ("내과", 6), ("이비인후과", 4), ("소아청소년과", 3), ("정형외과", 4), ("피부과", 3), ("안과", 2),
    ("가정의학과", 2), ("산부인과", 1), ("비뇨의학과", 1), ("재활의학과", 1), ("신경외과", 1),
    ("정신건강의학과", 1), ("성형외과", 1),
  ].map { specialty, weight in
    DemoPlaceTemplate("{trust}\(specialty)의원", "의료,건강 > 병원 > \(specialty)", weight)
  }

  static func all(_ category: PlaceCategory) -> [DemoPlaceTemplate] {
    switch category {
    case .largeMart:
      [
        .init("이마트 {branch}점", "가정,생활 > 대형마트 > 이마트", 3),
        .init("홈플러스 {branch}점", "가정,생활 > 대형마트 > 홈플러스", 3),
        .init("롯데마트 {branch}점", "가정,생활 > 대형마트 > 롯데마트", 2),
        .init("이마트 트레이더스 {stem}점", "가정,생활 > 대형마트 > 이마트트레이더스"),
        .init("코스트코 {stem}점", "가정,생활 > 대형마트 > 코스트코"),
        .init("농협하나로마트 {branch}점", "가정,생활 > 대형마트 > 하나로마트", 2),
      ]
    case .convenienceStore:
      [
        .init("GS25 {branch}점", "가정,생활 > 편의점 > GS25", 30),
        .init("CU {branch}점", "가정,생활 > 편의점 > CU", 30),
        .init("세븐일레븐 {branch}점", "가정,생활 > 편의점 > 세븐일레븐", 18),
        .init("이마트24 {branch}점", "가정,생활 > 편의점 > 이마트24", 14),
        .init("미니스톱 {branch}점", "가정,생활 > 편의점 > 미니스톱", 4),
      ]
    case .kindergarten:
      [
        .init("{word}어린이집", "교육,학문 > 유아교육 > 어린이집", 5),
        .init("국공립{stem}어린이집", "교육,학문 > 유아교육 > 어린이집", 3),
        .init("{stem}유치원", "교육,학문 > 유아교육 > 유치원", 2),
        .init("{trust}유치원", "교육,학문 > 유아교육 > 유치원"),
        .init("서울{stem}초등학교병설유치원", "교육,학문 > 유아교육 > 유치원"),
      ]
    case .school:
      [
        .init("서울{stem}초등학교", "교육,학문 > 학교 > 초등학교", 5),
        .init("{stem}중학교", "교육,학문 > 학교 > 중학교", 3),
        .init("{stem}고등학교", "교육,학문 > 학교 > 고등학교", 2),
        .init("{guStem}{pick:여자|공업|정보|예술}고등학교", "교육,학문 > 학교 > 고등학교"),
      ]
    case .academy:
      [
        .init("{stem}수학학원", "교육,학문 > 학원 > 입시,교과학원", 4),
        .init("{trust}영어학원", "교육,학문 > 학원 > 외국어학원 > 영어학원", 3),
        .init("청담어학원 {stem}캠퍼스", "교육,학문 > 학원 > 외국어학원 > 청담어학원"),
        .init("{word}피아노학원", "교육,학문 > 학원 > 예체능학원 > 음악학원", 2),
        .init("{trust}태권도", "교육,학문 > 학원 > 예체능학원 > 태권도", 2),
        .init("{word}미술학원", "교육,학문 > 학원 > 예체능학원 > 미술학원"),
        .init("{stem}{pick:독서실|스터디카페}", "교육,학문 > 독서실"),
        .init("{trust}{pick:국어|과학|논술}학원", "교육,학문 > 학원 > 입시,교과학원"),
        .init("{word}코딩학원", "교육,학문 > 학원 > 컴퓨터학원"),
      ]
    case .parking:
      [
        .init("{stem} 공영주차장", "교통,수송 > 교통시설 > 주차장 > 공영주차장", 3),
        .init("{road} 노상공영주차장", "교통,수송 > 교통시설 > 주차장 > 공영주차장", 2),
        .init("{word}빌딩 주차장", "교통,수송 > 교통시설 > 주차장", 3),
        .init("{station}역 환승주차장", "교통,수송 > 교통시설 > 주차장 > 공영주차장"),
        .init("하이파킹 {branch}점", "교통,수송 > 교통시설 > 주차장 > 하이파킹"),
      ]
    case .gasStation:
      [
        .init("SK에너지 {branch}주유소", "교통,수송 > 자동차 > 주유,가스 > 주유소 > SK에너지", 4),
        .init("GS칼텍스 {branch}주유소", "교통,수송 > 자동차 > 주유,가스 > 주유소 > GS칼텍스", 4),
        .init("S-OIL {branch}주유소", "교통,수송 > 자동차 > 주유,가스 > 주유소 > S-OIL", 3),
        .init("HD현대오일뱅크 {branch}주유소", "교통,수송 > 자동차 > 주유,가스 > 주유소 > HD현대오일뱅크", 3),
        .init("알뜰{stem}주유소", "교통,수송 > 자동차 > 주유,가스 > 주유소 > 알뜰주유소"),
        .init("{stem} 전기차충전소", "교통,수송 > 자동차 > 전기자동차 충전소", 2),
        .init("{stem}LPG충전소", "교통,수송 > 자동차 > 주유,가스 > 가스충전소"),
      ]
    case .subwayStation:
      [.init("{station}역 {line}", "교통,수송 > 지하철,전철 > 수도권{line}")]
    case .bank:
      [
        .init("KB국민은행 {branch}지점", "금융,보험 > 금융서비스 > 은행 > KB국민은행", 4),
        .init("신한은행 {branch}지점", "금융,보험 > 금융서비스 > 은행 > 신한은행", 4),
        .init("우리은행 {branch}지점", "금융,보험 > 금융서비스 > 은행 > 우리은행", 3),
        .init("하나은행 {branch}지점", "금융,보험 > 금융서비스 > 은행 > 하나은행", 3),
        .init("NH농협은행 {branch}지점", "금융,보험 > 금융서비스 > 은행 > NH농협은행", 2),
        .init("IBK기업은행 {branch}지점", "금융,보험 > 금융서비스 > 은행 > IBK기업은행", 2),
        .init("SC제일은행 {stem}지점", "금융,보험 > 금융서비스 > 은행 > SC제일은행"),
        .init("{pick:KB국민은행|신한은행|우리은행} {stem}금융센터", "금융,보험 > 금융서비스 > 은행"),
      ]
    case .culture:
      [
        .init("CGV {branch}", "문화,예술 > 영화,영상 > 영화관 > CGV", 2),
        .init("메가박스 {branch}", "문화,예술 > 영화,영상 > 영화관 > 메가박스", 2),
        .init("롯데시네마 {branch}", "문화,예술 > 영화,영상 > 영화관 > 롯데시네마", 2),
        .init("{gu}립{stem}도서관", "문화,예술 > 문화시설 > 도서관", 3),
        .init("{word}갤러리", "문화,예술 > 문화시설 > 갤러리,화랑", 3),
        .init("{word}소극장", "문화,예술 > 공연장,연극극장", 2),
        .init("{stem}문화센터", "문화,예술 > 문화시설 > 문화센터", 2),
        .init("{word}미술관", "문화,예술 > 문화시설 > 미술관"),
      ]
    case .realEstateAgency:
      [
        .init("{trust}공인중개사사무소", "부동산 > 부동산서비스 > 부동산중개", 6),
        .init("{stem}부동산공인중개사사무소", "부동산 > 부동산서비스 > 부동산중개", 3),
        .init("{word}부동산", "부동산 > 부동산서비스 > 부동산중개", 3),
        .init("{station}역{trust}공인중개사사무소", "부동산 > 부동산서비스 > 부동산중개"),
      ]
    case .publicInstitution:
      [
        .init("{dong}주민센터", "사회,공공기관 > 행정기관 > 행정복지센터", 4),
        .init("{stem}우체국", "사회,공공기관 > 우체국", 2),
        .init("{stem}파출소", "사회,공공기관 > 치안기관 > 파출소", 2),
        .init("{stem}119안전센터", "사회,공공기관 > 소방기관 > 119안전센터"),
        .init("{gu}보건소 {stem}분소", "사회,공공기관 > 보건소"),
        .init("{guStem}{pick:세무서|고용센터|등기소}", "사회,공공기관 > 행정기관"),
      ]
    case .attraction:
      [
        .init("{stem}근린공원", "여행 > 공원 > 도시근린공원", 4),
        .init("{stem}어린이공원", "여행 > 공원 > 어린이공원", 3),
        .init("{word}공원", "여행 > 공원 > 도시근린공원", 2),
        .init("{stem} 벽화골목", "여행 > 관광,명소 > 테마거리"),
        .init("{road} 가로수길", "여행 > 관광,명소 > 테마거리"),
      ]
    case .lodging:
      [
        .init("{word}호텔", "여행 > 숙박 > 호텔", 2),
        .init("호텔 {word} {branch}", "여행 > 숙박 > 호텔"),
        .init("신라스테이 {branch}", "여행 > 숙박 > 호텔 > 신라스테이"),
        .init("나인트리 호텔 {branch}", "여행 > 숙박 > 호텔 > 나인트리"),
        .init("{word}모텔", "여행 > 숙박 > 모텔", 3),
        .init("{word} 게스트하우스", "여행 > 숙박 > 게스트하우스", 2),
        .init("{stem} {word}스테이", "여행 > 숙박 > 레지던스"),
      ]
    case .restaurant:
      [
        .init(
          "{pick:원조|할매|옛날|진미|소문난|장수|고향|명가}{pick:순대국|국밥|설렁탕|해장국|곰탕}",
          "음식점 > 한식 > 해장국", 5),
        .init("{stem}{pick:칼국수|손칼국수|수제비|만두}", "음식점 > 한식 > 국수", 3),
        .init(
          "{pick:미소|화로|참숯|왕|제주|흑돼지|돈}{pick:삼겹살|갈비|고깃집|숯불구이|돼지갈비}",
          "음식점 > 한식 > 육류,고기", 6),
        .init(
          "{surname}씨네 {pick:김치찌개|부대찌개|닭갈비|생선구이}", "음식점 > 한식 > 찌개,전골", 3),
        .init("{stem}{pick:곱창|막창|닭한마리|족발|보쌈}", "음식점 > 한식 > 곱창,막창", 3),
        .init("{word}{pick:한정식|밥상|식당|백반}", "음식점 > 한식 > 한정식", 3),
        .init("{pick:함흥|평양|을밀대|봉피}{pick:냉면|면옥}", "음식점 > 한식 > 냉면", 2),
        .init("본죽 {branch}점", "음식점 > 한식 > 죽 > 본죽"),
        .init("김밥천국 {branch}점", "음식점 > 분식 > 김밥천국", 2),
        .init("{word}김밥", "음식점 > 분식", 2),
        .init("신전떡볶이 {branch}점", "음식점 > 분식 > 신전떡볶이"),
        .init("교촌치킨 {branch}점", "음식점 > 치킨 > 교촌치킨", 2),
        .init("BBQ {branch}점", "음식점 > 치킨 > BBQ치킨", 2),
        .init("bhc치킨 {branch}점", "음식점 > 치킨 > bhc치킨", 2),
        .init("{word}통닭", "음식점 > 치킨"),
        .init("맥도날드 {branch}점", "음식점 > 패스트푸드 > 맥도날드"),
        .init("롯데리아 {branch}점", "음식점 > 패스트푸드 > 롯데리아"),
        .init("버거킹 {branch}점", "음식점 > 패스트푸드 > 버거킹"),
        .init("맘스터치 {branch}점", "음식점 > 패스트푸드 > 맘스터치"),
        .init("서브웨이 {branch}점", "음식점 > 패스트푸드 > 서브웨이"),
        .init(
          "{pick:홍콩|북경|만리장성|취영|연경|진진|동해|황궁}{pick:반점|각|루}",
          "음식점 > 중식 > 중화요리", 4),
        .init("홍콩반점0410 {branch}점", "음식점 > 중식 > 중화요리 > 홍콩반점0410"),
        .init("{word} 마라탕", "음식점 > 중식 > 마라탕"),
        .init("스시{pick:하나|유메|긴자|미도리|코우지}", "음식점 > 일식 > 초밥,롤", 2),
        .init("{pick:멘야|라멘} {word}", "음식점 > 일식 > 일본식라면"),
        .init("{word}돈까스", "음식점 > 일식 > 돈까스,우동", 2),
        .init("{stem} 이자카야", "음식점 > 술집 > 일본식주점"),
        .init("{word} 파스타", "음식점 > 양식 > 이탈리안", 2),
        .init("비스트로 {word}", "음식점 > 양식"),
        .init("도미노피자 {branch}점", "음식점 > 양식 > 피자 > 도미노피자"),
        .init("{word}버거", "음식점 > 양식 > 햄버거"),
        .init("파리바게뜨 {branch}점", "음식점 > 간식 > 제과,베이커리 > 파리바게뜨", 2),
        .init("뚜레쥬르 {branch}점", "음식점 > 간식 > 제과,베이커리 > 뚜레쥬르"),
        .init("{word}베이커리", "음식점 > 간식 > 제과,베이커리"),
        .init("이삭토스트 {branch}점", "음식점 > 간식 > 토스트 > 이삭토스트"),
        .init("{word} 호프", "음식점 > 술집 > 호프,요리주점", 2),
        .init("{word}포차", "음식점 > 술집 > 실내포장마차", 2),
        .init("{stem}{pick:생고기|막걸리|전집}", "음식점 > 술집"),
        .init("한솥도시락 {branch}점", "음식점 > 도시락 > 한솥도시락"),
      ]
    case .cafe:
      [
        .init("스타벅스 {branch}점", "음식점 > 카페 > 커피전문점 > 스타벅스", 8),
        .init("스타벅스 {branch}R점", "음식점 > 카페 > 커피전문점 > 스타벅스"),
        .init("이디야커피 {branch}점", "음식점 > 카페 > 커피전문점 > 이디야커피", 6),
        .init("투썸플레이스 {branch}점", "음식점 > 카페 > 커피전문점 > 투썸플레이스", 4),
        .init("메가MGC커피 {branch}점", "음식점 > 카페 > 커피전문점 > 메가MGC커피", 6),
        .init("컴포즈커피 {branch}점", "음식점 > 카페 > 커피전문점 > 컴포즈커피", 5),
        .init("빽다방 {branch}점", "음식점 > 카페 > 커피전문점 > 빽다방", 4),
        .init("할리스 {branch}점", "음식점 > 카페 > 커피전문점 > 할리스", 2),
        .init("커피빈 {branch}점", "음식점 > 카페 > 커피전문점 > 커피빈", 2),
        .init("폴바셋 {branch}점", "음식점 > 카페 > 커피전문점 > 폴바셋"),
        .init("카페 {word}", "음식점 > 카페", 10),
        .init("{word} 커피", "음식점 > 카페", 6),
        .init("{word}로스터스", "음식점 > 카페 > 커피전문점", 2),
        .init("{word} 디저트", "음식점 > 카페 > 디저트카페", 2),
        .init("설빙 {branch}점", "음식점 > 카페 > 디저트카페 > 설빙"),
        .init("공차 {branch}점", "음식점 > 카페 > 테마카페 > 공차"),
      ]
    case .hospital:
      clinics + [
        .init("{trust}치과의원", "의료,건강 > 병원 > 치과", 6),
        .init("{trust}한의원", "의료,건강 > 병원 > 한의원", 5),
        .init("{guStem}{pick:성모|중앙|제일|우리}병원", "의료,건강 > 병원 > 종합병원"),
        .init("{word}요양병원", "의료,건강 > 병원 > 요양병원"),
      ]
    case .pharmacy:
      [
        .init("{trust}약국", "의료,건강 > 약국", 6),
        .init("{stem}약국", "의료,건강 > 약국", 3),
        .init("{station}{trust}약국", "의료,건강 > 약국"),
        .init("온누리{stem}약국", "의료,건강 > 약국 > 온누리약국"),
      ]
    }
  }
}
