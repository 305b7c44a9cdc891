/**
 * /api/tracking/click.js, for partners' landing pages. Keeps the bclickid a tracked link added
 * to the URL, with its timestamp, for 30 days (SPEC §9: two localStorage keys). No cookies.
 * Plain ES5 so it runs on any page; kept tiny because it loads on every landing page.
 */
export const CLICK_SCRIPT = `(function(w,d){"use strict";
var K="buddy_bclickid",T="buddy_bclickid_ts",TTL=2592e6,b=w.buddy=w.buddy||{};
function store(){try{return w.localStorage}catch(e){return null}}
b.clickId=function(){var s=store();if(!s)return null;var id=s.getItem(K),t=+s.getItem(T);
if(!id||!t||Date.now()-t>TTL){s.removeItem(K);s.removeItem(T);return null}return id};
var m=/[?&]bclickid=([A-Za-z0-9_-]{10,64})(?:&|#|$)/.exec(w.location.search),s=store();
if(m&&s){try{s.setItem(K,m[1]);s.setItem(T,String(Date.now()))}catch(e){}}
b.clickId();
})(window,document);
`;
